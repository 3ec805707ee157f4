import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminLawyer } from '@legalmarket/contracts/admin';
import { api } from '@/lib/http';
import { adminKeys } from './keys';

const rejectLawyer = ({ id, reason }: { id: string; reason: string }) =>
  api<{ status: 'success'; message: string; data: { lawyer: AdminLawyer } }>(`/api/rejectlawyer/${id}`, {
    method: 'POST',
    body: { reason },
  });

/** Refuses a verification with a reason the lawyer is e-mailed; refreshes the admin lists. */
export function useRejectLawyer() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: rejectLawyer,
    // A refusal (409/404) means another admin acted first: read the lists again either way.
    // Not awaited: a refusal (409) shows at once, not after every admin list is read again.
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: adminKeys.all });
    },
  });
}
