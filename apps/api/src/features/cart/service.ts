import { and, asc, eq, isNull } from 'drizzle-orm';
import { messages, type CartResponse, type addToCartInput } from '@legalmarket/contracts';
import type { z } from 'zod';
import type { Db, Executor } from '../../db/client.js';
import { cartItems, products } from '../../db/schema.js';
import type { Clock } from '../../platform/clock.js';
import { notFound } from '../../platform/errors.js';
import { assertAttachable } from '../uploads/service.js';
import { blankToNull } from '../../platform/text.js';

/** One cart line joined with its live catalogue entry; prices are kobo here. */
export interface PricedLine {
  productId: string;
  productName: string;
  productImage: string;
  /** Catalogue price in kobo, never the client's. */
  unitPrice: number;
  quantity: number;
  detail: string | null;
  file: string | null;
  fileName: string | null;
}

/** The tables a cart is read from (what its cached response depends on, platform/response-cache.ts). */
export const CART_READS = ['cart_items', 'products'] as const;

/** The company's cart at today's catalogue prices; products removed from the catalogue drop out. */
export async function readPricedCart(ex: Executor, companyId: string): Promise<PricedLine[]> {
  return ex
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
}

export const billOf = (lines: Pick<PricedLine, 'unitPrice' | 'quantity'>[]) =>
  lines.reduce((sum, l) => sum + l.unitPrice * l.quantity, 0);

export function createCartService(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;

  async function view(companyId: string): Promise<CartResponse> {
    const lines = await readPricedCart(db, companyId);
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
          productName: l.productName,
          productImage: l.productImage,
        })),
        bill: billOf(lines) / 100,
      },
    ];
  }

  return {
    view,

    /** Adds a product, or replaces the line when the product is already in the cart. */
    async add(companyId: string, input: z.output<typeof addToCartInput>) {
      const live = await db
        .select({ id: products.id })
        .from(products)
        .where(and(eq(products.id, input.productId), isNull(products.deletedAt)))
        .limit(1);
      if (!live[0]) throw notFound(messages.productUnavailable);
      await assertAttachable(db, { id: companyId, userType: 'company' }, input.file);
      const now = clock.now();
      const values = {
        quantity: input.quantity,
        detail: blankToNull(input.detail),
        file: blankToNull(input.file),
        fileName: input.file ? blankToNull(input.fileName) : null,
        updatedAt: now,
      };
      await db
        .insert(cartItems)
        .values({ companyId, productId: input.productId, createdAt: now, ...values })
        .onConflictDoUpdate({ target: [cartItems.companyId, cartItems.productId], set: values });
      return view(companyId);
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
