import type { Product } from '@legalmarket/contracts/catalogue';
import type { CartLine } from '@legalmarket/contracts/commerce';
import { randomUuid } from '@/lib/random-id';

/**
 * A visitor's local reservation (spec section 3), kept in localStorage under `reservedItems`: a UI
 * shape, made of the catalogue's product fields and the cart line's quantity and brief.
 */
export type ReservedItem = Pick<CartLine, 'productId' | 'quantity'> &
  Pick<Product, 'productName' | 'productPrice' | 'productImage'> &
  Partial<Pick<CartLine, 'detail' | 'file' | 'fileName'>> & {
    /** Given when reserved; the server moves a reservation into a company's cart once per id (decision 1800). */
    reservationId?: string;
  };

// Read by hand rather than with zod: the product and cart pages would otherwise load zod (25 KB) for it.
const text = (v: unknown, fallback: string) => (typeof v === 'string' ? v : fallback);
const finite = (v: unknown) => {
  const n = Number(v);
  return Number.isFinite(n) ? n : null;
};
const optionalText = (v: unknown) => (v === undefined || v === null || typeof v === 'string' ? v : null);

/** One stored entry, or null when it has no product id; unreadable fields fall back as before. */
function readItem(x: unknown): ReservedItem | null {
  if (typeof x !== 'object' || x === null || Array.isArray(x)) return null;
  const o = x as Record<string, unknown>;
  if (typeof o.productId !== 'string') return null;
  const quantity = finite(o.quantity);
  return {
    productId: o.productId,
    productName: text(o.productName, ''),
    productPrice: finite(o.productPrice) ?? 0,
    productImage: text(o.productImage, ''),
    quantity: quantity !== null && Number.isInteger(quantity) && quantity >= 1 && quantity <= 10 ? quantity : 1,
    detail: optionalText(o.detail),
    file: optionalText(o.file),
    fileName: optionalText(o.fileName),
    reservationId: typeof o.reservationId === 'string' && UUID.test(o.reservationId) ? o.reservationId : undefined,
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A reservation's id, made in the browser. */
export const newReservationId = randomUuid;

export const RESERVED_KEY = 'reservedItems';

/** The browser's reservations; anything unreadable is skipped rather than breaking the page. */
export function readReservedItems(): ReservedItem[] {
  try {
    const raw = JSON.parse(localStorage.getItem(RESERVED_KEY) ?? '[]') as unknown;
    if (!Array.isArray(raw)) return [];
    return raw.flatMap((x) => {
      const r = readItem(x);
      return r ? [r] : [];
    });
  } catch {
    return [];
  }
}

/**
 * Sent on this window when its reservations change: the browser's `storage` event reaches only the
 * other tabs, and the top bar's badge must follow a Reserve on the same page.
 */
export const RESERVED_CHANGED = 'legalmarket:reserved-items';

export function writeReservedItems(items: ReservedItem[]) {
  localStorage.setItem(RESERVED_KEY, JSON.stringify(items));
  window.dispatchEvent(new Event(RESERVED_CHANGED));
}

export function clearReservedItems() {
  localStorage.removeItem(RESERVED_KEY);
  window.dispatchEvent(new Event(RESERVED_CHANGED));
}

/** A line's brief grows when the same product is reserved again, up to this (the server's limit, decision 1800). */
const RESERVED_BRIEF_MAX = 10_000;

/**
 * Reserves a product in this browser: a product already reserved adds to its line as the server
 * cart does (decision 1800): quantities add up to at most 10, the new brief follows the old one.
 * Answers what happened to a line that was already there, or null for a new line.
 */
export function reserve(
  product: Pick<ReservedItem, 'productId' | 'productName' | 'productPrice' | 'productImage'>,
  quantity: number,
  detail: string | null,
): string | null {
  const items = readReservedItems();
  const at = items.findIndex((i) => i.productId === product.productId);
  if (at < 0) {
    writeReservedItems([
      ...items,
      { ...product, quantity, detail, file: null, fileName: null, reservationId: newReservationId() },
    ]);
    return null;
  }
  const line = items[at];
  const said: string[] = [];
  const total = Math.min(line.quantity + quantity, 10);
  said.push(
    total === 10 && line.quantity + quantity > 10
      ? `the quantity is now 10, the most one line holds`
      : `the quantity is now ${total}`,
  );
  let brief = line.detail ?? null;
  if (detail && !(brief ?? '').split('\n\n').includes(detail)) {
    const joined = brief ? `${brief}\n\n${detail}` : detail;
    if (joined.length <= RESERVED_BRIEF_MAX) {
      brief = joined;
      said.push(line.detail ? 'your brief was added after the one already there' : 'your brief was added');
    } else said.push(`your new brief was not added: one line's briefs hold at most ${RESERVED_BRIEF_MAX} characters`);
  }
  // A reservation already sent to a cart must not be skipped as "moved" when it grows: it gets a new id.
  items[at] = { ...line, ...product, quantity: total, detail: brief, reservationId: newReservationId() };
  writeReservedItems(items);
  return `${product.productName} was already reserved: ${said.join(', ')}.`;
}

/** Takes out the reservations with these ids (those now in a company's cart); others stay. */
export function removeReservedItems(ids: ReadonlySet<string>) {
  const left = readReservedItems().filter((i) => !i.reservationId || !ids.has(i.reservationId));
  if (left.length) writeReservedItems(left);
  else clearReservedItems();
}
