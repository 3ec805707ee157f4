import { and, asc, eq, isNull, sql, type Placeholder } from 'drizzle-orm';
import {
  CART_BRIEF_MAX,
  LIMITS,
  messages,
  type CartResponse,
  type addToCartInput,
  type moveReservationsInput,
} from '@legalmarket/contracts';
import type { z } from 'zod';
import type { Db, Executor } from '../../db/client.js';
import { cartItems, products, reservationMoves } from '../../db/schema.js';
import type { Clock } from '../../platform/clock.js';
import { AppError, conflict, notFound } from '../../platform/errors.js';
import { discounted, planDiscountPercent } from '../plans/service.js';
import { assertAttachable, cleanFileName } from '../uploads/service.js';
import { blankToNull } from '../../platform/text.js';
import { lockCompany, lockLiveAccount } from '../../db/locks.js';
import { uuidFrom } from '../../platform/tokens.js';

/**
 * Where an addition under a client key is remembered among the reservation ids: derived, so a key can
 * never stand for a visitor's reservation (nor one for a key), and one key names one product's addition.
 */
const additionIdFor = (companyId: string, key: string, productId: string) =>
  uuidFrom(`cart-add:${companyId}:${key}:${productId}`);

/** One cart line joined with its live catalogue entry; prices are kobo here. */
interface PricedLine {
  productId: string;
  productName: string;
  productImage: string;
  /** What the company pays for one, in kobo: the catalogue price less its plan's discount, never the client's. */
  unitPrice: number;
  /** The catalogue price in kobo, before the plan's discount. */
  listPrice: number;
  /** The plan's discount on this line (0, 10 or 20; decision 1900). */
  percentOff: number;
  quantity: number;
  detail: string | null;
  file: string | null;
  fileName: string | null;
}

/** The tables a cart is read from (what its cached response depends on, platform/response-cache.ts). */
export const CART_READS = ['cart_items', 'products', 'subscriptions'] as const;

/**
 * The company's cart at today's catalogue prices less its plan's discount (Silver 10 %, Gold 20 %), the
 * one place a price is computed; products removed from the catalogue drop out.
 */
export async function readPricedCart(ex: Executor, companyId: string): Promise<PricedLine[]> {
  return priced(ex, companyId, await selectCartLines(ex, companyId));
}

/** The company's lines joined with their live products, oldest first (prices in kobo, before any discount). */
const selectCartLines = (ex: Executor, companyId: string | Placeholder) =>
  ex
    .select({
      productId: cartItems.productId,
      productName: products.productName,
      productImage: products.productImage,
      unitPrice: products.productPrice,
      quantity: cartItems.quantity,
      detail: cartItems.detail,
      file: cartItems.file,
      fileName: cartItems.fileName,
    })
    .from(cartItems)
    .innerJoin(products, and(eq(products.id, cartItems.productId), isNull(products.deletedAt)))
    .where(eq(cartItems.companyId, companyId))
    .orderBy(asc(cartItems.createdAt), asc(cartItems.productId));

type CartLine = Awaited<ReturnType<typeof selectCartLines>>[number];

async function priced(ex: Executor, companyId: string, lines: CartLine[]): Promise<PricedLine[]> {
  const percentOff = lines.length ? await planDiscountPercent(ex, companyId) : 0;
  return lines.map((l) => ({
    ...l,
    listPrice: l.unitPrice,
    unitPrice: discounted(l.unitPrice, percentOff),
    percentOff,
  }));
}

export const billOf = (lines: Pick<PricedLine, 'unitPrice' | 'quantity'>[]) =>
  lines.reduce((sum, l) => sum + l.unitPrice * l.quantity, 0);

async function liveProduct(ex: Executor, productId: string) {
  const [row] = await ex
    .select({ productName: products.productName })
    .from(products)
    .where(and(eq(products.id, productId), isNull(products.deletedAt)))
    .limit(1);
  return row;
}

type LineInput = Pick<z.output<typeof addToCartInput>, 'productId' | 'quantity' | 'detail' | 'file' | 'fileName'>;

/** Whether a brief already holds the new one as one of its paragraphs (adding it again says nothing new). */
const holdsBrief = (brief: string, added: string) => brief.split('\n\n').includes(added);

export function createCartService(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;

  /**
   * Writes one line under the cart lock: a new line as given, or the sum with the line already
   * there. `refuse` (a company adding) answers 409 for what does not fit; `cap` (a move) keeps what
   * fits and says so. Answers the note describing a merge, or null for a new line.
   */
  async function mergeLine(
    tx: Executor,
    companyId: string,
    productName: string,
    input: LineInput,
    onOverflow: 'refuse' | 'cap',
  ): Promise<string | null> {
    const now = clock.now();
    const detail = blankToNull(input.detail);
    const file = blankToNull(input.file);
    // Shown to the job's lawyer and in its e-mails: cleaned as an uploaded file's name is.
    const fileName = file && blankToNull(input.fileName) ? cleanFileName(input.fileName, 'Document') : null;
    const [line] = await tx
      .select()
      .from(cartItems)
      .where(and(eq(cartItems.companyId, companyId), eq(cartItems.productId, input.productId)))
      .limit(1);
    if (!line) {
      await tx.insert(cartItems).values({
        companyId,
        productId: input.productId,
        quantity: input.quantity,
        detail,
        file,
        fileName,
        createdAt: now,
        updatedAt: now,
      });
      return null;
    }
    const said: string[] = [];
    let quantity = line.quantity + input.quantity;
    if (quantity > LIMITS.quantityMax) {
      if (onOverflow === 'refuse') {
        const room = LIMITS.quantityMax - line.quantity;
        throw conflict(
          `${productName} is already in your cart ${line.quantity} times; one line holds at most ${LIMITS.quantityMax}.` +
            (room > 0 ? ` Choose ${room} or fewer.` : ''),
        );
      }
      quantity = LIMITS.quantityMax;
      said.push(`the quantity is now ${quantity}, the most one line holds`);
    } else said.push(`the quantity is now ${quantity}`);

    let brief = line.detail;
    if (detail && !(brief && holdsBrief(brief, detail))) {
      const joined = brief ? `${brief}\n\n${detail}` : detail;
      if (joined.length > CART_BRIEF_MAX && onOverflow === 'refuse')
        throw conflict(
          `The brief for ${productName} would pass ${CART_BRIEF_MAX} characters. Remove it from your cart and add it again with one brief.`,
        );
      brief = joined;
      said.push(line.detail ? 'your brief was added after the one already there' : 'your brief was added');
    }

    let keptFile = { file: line.file, fileName: line.fileName };
    if (file && file !== line.file) {
      if (!line.file) {
        keptFile = { file, fileName };
        said.push('your document was attached');
      } else if (onOverflow === 'refuse') {
        throw conflict(
          `${productName} already has a document in your cart. Remove it from your cart to attach another one.`,
        );
      } else said.push('it keeps the document it had, so the reserved one was not attached');
    }
    await tx
      .update(cartItems)
      .set({ quantity, detail: brief, ...keptFile, updatedAt: now })
      .where(and(eq(cartItems.companyId, companyId), eq(cartItems.productId, input.productId)));
    return `${productName} was already in your cart: ${said.join(', ')}.`;
  }

  // The read every cart page makes, built once (the SQL text and, on a server, one plan for it): built
  // and planned again on each request it cost 0.4 ms of planning for 0.2 ms of running.
  const cartLines = selectCartLines(db, sql.placeholder('companyId')).prepare('cart_lines');

  async function view(companyId: string): Promise<CartResponse> {
    const lines = await priced(db, companyId, await cartLines.execute({ companyId }));
    if (!lines.length) throw notFound(messages.cartEmpty);
    return [
      {
        products: lines.map((l) => ({
          productId: l.productId,
          quantity: l.quantity,
          detail: l.detail,
          file: l.file,
          fileName: l.fileName,
          price: l.unitPrice / 100,
          ...(l.percentOff ? { listPrice: l.listPrice / 100, percentOff: l.percentOff } : {}),
          productName: l.productName,
          productImage: l.productImage,
        })),
        bill: billOf(lines) / 100,
        ...(lines[0]?.percentOff
          ? {
              discount: {
                percentOff: lines[0].percentOff,
                saved: lines.reduce((s, l) => s + (l.listPrice - l.unitPrice) * l.quantity, 0) / 100,
              },
            }
          : {}),
      },
    ];
  }

  /** The cart, or an empty one rather than a 404 (answers to a change that left nothing in it). */
  async function viewOrEmpty(companyId: string): Promise<CartResponse> {
    const lines = await readPricedCart(db, companyId);
    return lines.length ? view(companyId) : [{ products: [], bill: 0 }];
  }

  return {
    view,

    /**
     * Adds a product; a product already in the cart adds to its line (decision 1800): the quantities
     * add up, a new brief follows the old one, a document joins a line that had none. What cannot be
     * added (over 10, a second document, a brief past CART_BRIEF_MAX) is refused with 409, never dropped.
     * Under a `key` (the Idempotency-Key header) it adds once: an id made from the key and the product is
     * remembered beside the reservation ids, so the same addition sent again (a retry whose first answer
     * was lost) changes nothing and answers the cart (decision 2240).
     */
    async add(companyId: string, input: z.output<typeof addToCartInput>, key?: string) {
      const notes = await db.transaction(async (tx) => {
        await lockCompany(tx, companyId);
        await lockLiveAccount(tx, companyId);
        if (key) {
          const fresh = await tx
            .insert(reservationMoves)
            .values({ companyId, reservationId: additionIdFor(companyId, key, input.productId), movedAt: clock.now() })
            .onConflictDoNothing()
            .returning({ id: reservationMoves.reservationId });
          if (!fresh[0]) return null;
        }
        const product = await liveProduct(tx, input.productId);
        if (!product) throw notFound(messages.productUnavailable);
        await assertAttachable(tx, { id: companyId, userType: 'company' }, input.file, null, input.fileName);
        const note = await mergeLine(tx, companyId, product.productName, input, 'refuse');
        return note ? [note] : [];
      });
      // Added already under this key: the cart as it is now, which another tab may have emptied since.
      if (!notes) return { data: await viewOrEmpty(companyId), notes: [] };
      return { data: await view(companyId), notes };
    },

    /**
     * Moves a visitor's reservations into the cart once each (reservation_moves remembers their ids),
     * merged as `add` does; a move never fails on a merge: over 10 is capped and a second document
     * stays out, each said in `notes`. Products gone from the catalogue are skipped and named.
     */
    async moveReservations(companyId: string, input: z.output<typeof moveReservationsInput>) {
      const notes = await db.transaction(async (tx) => {
        await lockCompany(tx, companyId);
        await lockLiveAccount(tx, companyId);
        const notes: string[] = [];
        for (const item of input.items) {
          const fresh = await tx
            .insert(reservationMoves)
            .values({ companyId, reservationId: item.reservationId, movedAt: clock.now() })
            .onConflictDoNothing()
            .returning({ id: reservationMoves.reservationId });
          if (!fresh[0]) continue;
          const product = await liveProduct(tx, item.productId);
          if (!product) {
            notes.push('A reserved product is no longer available and was not added.');
            continue;
          }
          let file = item.file;
          try {
            await assertAttachable(tx, { id: companyId, userType: 'company' }, item.file);
          } catch (err) {
            if (!(err instanceof AppError)) throw err;
            file = undefined;
            // A file swept after a week unattached is gone, not someone else's: said as it is.
            const why =
              err.message === messages.attachedFileNotFound
                ? 'was not found'
                : err.statusCode === 403
                  ? 'is not yours to attach'
                  : `could not be attached (${err.message})`;
            notes.push(`The document reserved with ${product.productName} ${why}; please upload it again.`);
          }
          const note = await mergeLine(tx, companyId, product.productName, { ...item, file }, 'cap');
          if (note) notes.push(note);
        }
        return notes;
      });
      // Everything skipped can leave the cart empty: answered as an empty cart rather than a 404.
      return { data: await viewOrEmpty(companyId), notes };
    },

    /** Idempotent: removing a product that is not in the cart answers the same. */
    async remove(companyId: string, productId: string) {
      await db.delete(cartItems).where(and(eq(cartItems.companyId, companyId), eq(cartItems.productId, productId)));
    },

    async clear(companyId: string) {
      await db.delete(cartItems).where(eq(cartItems.companyId, companyId));
    },
  };
}
export type CartService = ReturnType<typeof createCartService>;
