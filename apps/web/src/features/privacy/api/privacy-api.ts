import { useMutation, useQuery } from '@tanstack/react-query';
import type { DeleteAccountInput, DeletionCheckResponse } from '@legalmarket/contracts/privacy';
import { api } from '@/lib/http';

export const privacyKeys = { deletion: () => ['privacy', 'deletion'] as const };

/** GET /api/account/deletion: whether the account may be deleted now, each blocker named. */
export const useDeletionCheck = (enabled: boolean) =>
  useQuery({
    queryKey: privacyKeys.deletion(),
    enabled,
    // Each opening asks again: a job may have closed since.
    staleTime: 0,
    gcTime: 0,
    queryFn: ({ signal }) => api<DeletionCheckResponse>('/api/account/deletion', { signal }).then((r) => r.data),
  });

/** POST /api/account/delete with the password. A wrong password answers 403, which keeps the session. */
export const useDeleteAccount = () =>
  useMutation({
    mutationFn: (body: DeleteAccountInput) => api<{ message: string }>('/api/account/delete', { method: 'POST', body }),
  });
