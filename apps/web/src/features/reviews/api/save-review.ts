import { invalidateProductRating, reviewKeys } from './keys';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ReviewResponse, ReviewInput } from '@legalmarket/contracts/catalogue';
import { api } from '@/lib/http';

/** POST /api/rating, or PATCH /api/rating/{id} when editing (the id is kept by the edit mode). */
export function useSaveReview(productId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: string; body: ReviewInput }) =>
      api<ReviewResponse>(id ? `/api/rating/${encodeURIComponent(id)}` : '/api/rating', {
        method: id ? 'PATCH' : 'POST',
        body,
      }),
    onSuccess: () => {
      invalidateProductRating(qc, productId);
      return qc.invalidateQueries({ queryKey: reviewKeys.product(productId) });
    },
  });
}
