import { cartKeys } from './keys';
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CartResponse, CartView } from '@legalmarket/contracts/commerce';
import { api, HttpError, takeArrived } from '@/lib/http';

/** The cart a GET /api/cart answer holds (the server sends `[]` for the spec's empty 404). */
export const cartOfResponse = (res: CartResponse): CartView => res[0] ?? { products: [], bill: 0 };

/** GET /api/cart; the spec's "not found" for an empty cart becomes an empty cart here. */
export const cartQueryOptions = (enabled: boolean) =>
  queryOptions({
    queryKey: cartKeys.cart(),
    enabled,
    queryFn: async ({ signal }): Promise<CartView> => {
      try {
        return cartOfResponse(await api<CartResponse>('/api/cart', { signal }));
      } catch (err) {
        if (err instanceof HttpError && err.status === 404) return { products: [], bill: 0 };
        throw err;
      }
    },
    // Asked for while /cart loaded (app/page-data.ts): the page renders with it at once.
    initialData: () => {
      const res = takeArrived<CartResponse>('/api/cart');
      return res ? cartOfResponse(res) : undefined;
    },
  });

export const useCart = (enabled: boolean) => useQuery(cartQueryOptions(enabled));
