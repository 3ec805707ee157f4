import { invalidateProductRating, reviewKeys } from './keys';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/http';

/** DELETE /api/rating/{id}. */
export function useDeleteReview(productId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<{ message: string }>(`/api/rating/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: () => {
      invalidateProductRating(qc, productId);
      return qc.invalidateQueries({ queryKey: reviewKeys.product(productId) });
    },
  });
}
