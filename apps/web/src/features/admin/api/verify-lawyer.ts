import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminLawyer } from '@legalmarket/contracts/admin';
import { api } from '@/lib/http';
import { adminKeys } from './keys';

const verifyLawyer = (id: string) =>
  api<{ status: 'success'; message: string; data: { lawyer: AdminLawyer } }>(`/api/verifylawyer/${id}`, {
    method: 'PATCH',
    body: { verified: true },
  });

/** Verifies, then refreshes every lawyer list, the dashboard and open jobs (their applicants). */
export function useVerifyLawyer() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: verifyLawyer,
    // A refusal (409/404) means another admin acted first: read the lists again either way.
    // Not awaited: a refusal (409) shows at once, not after every admin list is read again.
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: adminKeys.all });
    },
  });
}
