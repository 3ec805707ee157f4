import type { QueryClient } from '@tanstack/react-query';

/** Query keys of the reviews feature; mutations invalidate a product's list or a lawyer's reviews. */
export const reviewKeys = {
  all: ['reviews'] as const,
  product: (productId: string) => ['reviews', productId] as const,
  /** Every query of one lawyer's reviews starts with this (invalidating it reaches the one-job ones too). */
  lawyer: (lawyerId: string, jobId?: string) =>
    (jobId ? ['lawyer-reviews', lawyerId, jobId] : ['lawyer-reviews', lawyerId]) as readonly string[],
};

/**
 * A product's own answer and the catalogue lists carry its review average and count (the catalogue's
 * keys, `['products', id]` under `['products']`): a saved or deleted review makes them stale. Only the
 * product is read again at once; a list (the carousel shuffles on each answer) when next shown.
 */
export function invalidateProductRating(qc: QueryClient, productId: string) {
  void qc.invalidateQueries({ queryKey: ['products'], refetchType: 'none' });
  void qc.invalidateQueries({ queryKey: ['products', productId], exact: true });
}
