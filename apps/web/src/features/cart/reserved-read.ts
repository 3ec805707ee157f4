import type { Product } from '@legalmarket/contracts/catalogue';
import type { CartLine } from '@legalmarket/contracts/commerce';

// Reading only: the top bar counts a visitor's reservations on every page, the first one included,
// without the code that writes them (reserved-items.ts, loaded by the product and cart pages).

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
