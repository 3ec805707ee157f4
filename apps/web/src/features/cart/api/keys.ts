/** Query keys of the cart feature. */
export const cartKeys = {
  cart: () => ['cart'] as const,
};
