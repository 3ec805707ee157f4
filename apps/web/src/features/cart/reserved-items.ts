import { randomUuid } from '@/lib/random-id';
import { readReservedItems, RESERVED_CHANGED, RESERVED_KEY, type ReservedItem } from './reserved-read';

export { readReservedItems, RESERVED_CHANGED, RESERVED_KEY, type ReservedItem };

/** A reservation's id, made in the browser. */
export const newReservationId = randomUuid;

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
