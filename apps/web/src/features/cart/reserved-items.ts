import { z } from 'zod';

/** A visitor's local reservation (spec section 3): kept in localStorage under `reservedItems`. */
const reservedItem = z.object({
  productId: z.string(),
  productName: z.string().catch(''),
  productPrice: z.coerce.number().catch(0),
  productImage: z.string().catch(''),
  quantity: z.coerce.number().int().min(1).max(10).catch(1),
  detail: z.string().nullish().catch(null),
  file: z.string().nullish().catch(null),
  fileName: z.string().nullish().catch(null),
});
export type ReservedItem = z.infer<typeof reservedItem>;

export const RESERVED_KEY = 'reservedItems';

/** The browser's reservations; anything unreadable is skipped rather than breaking the page. */
export function readReservedItems(): ReservedItem[] {
  try {
    const raw = JSON.parse(localStorage.getItem(RESERVED_KEY) ?? '[]') as unknown;
    if (!Array.isArray(raw)) return [];
    return raw.flatMap((x) => {
      const r = reservedItem.safeParse(x);
      return r.success ? [r.data] : [];
    });
  } catch {
    return [];
  }
}

export function writeReservedItems(items: ReservedItem[]) {
  localStorage.setItem(RESERVED_KEY, JSON.stringify(items));
}

export function clearReservedItems() {
  localStorage.removeItem(RESERVED_KEY);
}
