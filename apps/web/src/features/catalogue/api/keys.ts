/** Query keys of the catalogue; the list key is shared with the home page's carousel. */
export const productKeys = {
  all: () => ['products'] as const,
  product: (id: string) => ['products', id] as const,
};
