/** Query keys of the reviews feature; mutations invalidate a product's list or a lawyer's reviews. */
export const reviewKeys = {
  all: ['reviews'] as const,
  product: (productId: string) => ['reviews', productId] as const,
  /** Every query of one lawyer's reviews starts with this (invalidating it reaches the one-job ones too). */
  lawyer: (lawyerId: string, jobId?: string) =>
    (jobId ? ['lawyer-reviews', lawyerId, jobId] : ['lawyer-reviews', lawyerId]) as readonly string[],
};
