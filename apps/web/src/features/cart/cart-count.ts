import { cartQueryOptions } from './api/get-cart';

/** The server cart's line count, for the top bar's badge: the cart page's own query, so they agree. */
export const cartCountQuery = () => ({
  ...cartQueryOptions(true),
  select: (cart: { products: unknown[] }) => cart.products.length,
});
