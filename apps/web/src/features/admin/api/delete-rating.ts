import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/http';
import { adminKeys } from './keys';

/** Admins may remove an abusive review (DELETE /api/rating/{id}; the reviews feature audit-logs it). */
const deleteRating = (id: string) =>
  api<{ status: 'success'; message: string }>(`/api/rating/${id}`, { method: 'DELETE' });

export function useDeleteRating() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: deleteRating,
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: adminKeys.ratings() });
      void qc.invalidateQueries({ queryKey: adminKeys.dashboard() });
    },
  });
}
