import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  LawyerReplyInput,
  LawyerReviewFields,
  LawyerReviewResponse,
  LawyerReviewsResponse,
} from '@legalmarket/contracts/lawyer-reviews';
import { api, HttpError } from '@/lib/http';
import { reviewKeys } from './keys';

/** GET /api/lawyers/{id}/reviews: average, count and the newest reviews (or one job's with jobId). */
export const useLawyerReviews = (lawyerId: string | undefined, jobId?: string) =>
  useQuery({
    queryKey: reviewKeys.lawyer(lawyerId ?? '', jobId),
    queryFn: () =>
      api<LawyerReviewsResponse>(`/api/lawyers/${encodeURIComponent(lawyerId!)}/reviews`, { query: { jobId } }),
    enabled: !!lawyerId,
  });

/** POST /api/lawyer-reviews, or PATCH /api/lawyer-reviews/{id} to edit within 14 days. */
export function useSaveLawyerReview(lawyerId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, jobId, body }: { id?: string; jobId: string; body: LawyerReviewFields }) =>
      api<LawyerReviewResponse>(id ? `/api/lawyer-reviews/${encodeURIComponent(id)}` : '/api/lawyer-reviews', {
        method: id ? 'PATCH' : 'POST',
        body: id ? body : { ...body, jobId },
      }),
    onSuccess: () => qc.invalidateQueries({ queryKey: reviewKeys.lawyer(lawyerId) }),
    onError: (err, { id }) => {
      // Written already (sent again after a lost answer, or in another tab): read again, the page shows it.
      if (!id && isConflict(err)) void qc.invalidateQueries({ queryKey: reviewKeys.lawyer(lawyerId) });
    },
  });
}

const isConflict = (err: unknown) => err instanceof HttpError && err.status === 409;

/** POST /api/lawyer-reviews/{id}/reply: the lawyer's one answer. */
export function useReplyToReview(lawyerId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: LawyerReplyInput }) =>
      api<LawyerReviewResponse>(`/api/lawyer-reviews/${encodeURIComponent(id)}/reply`, { method: 'POST', body }),
    onSuccess: () => qc.invalidateQueries({ queryKey: reviewKeys.lawyer(lawyerId) }),
    // Answered already (sent again after a lost answer): read again, the page shows the answer.
    onError: (err) => {
      if (isConflict(err)) void qc.invalidateQueries({ queryKey: reviewKeys.lawyer(lawyerId) });
    },
  });
}
