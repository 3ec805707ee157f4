/** Query keys of the reviews feature; mutations invalidate a product's list. */
export const reviewKeys = {
  all: ['reviews'] as const,
  product: (productId: string) => ['reviews', productId] as const,
};
