import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdminPayoutsResponse, ApprovePayoutsResponse, PayoutResponse } from '@legalmarket/contracts/payouts';
import { api, REQUEST_TIMEOUT_MS } from '@/lib/http';
import { adminKeys } from './keys';

/** The API's limit on one call to the payment provider (`apps/api/src/platform/payments/flutterwave.ts`). */
const PROVIDER_CALL_MS = 10_000;

const getPayouts = () => api<AdminPayoutsResponse>('/api/admin/payouts');

export const usePayouts = () => useQuery({ queryKey: adminKeys.payouts(), queryFn: getPayouts });

/**
 * Approves one or more payouts in one batch call, all or nothing (decision 2295); payouts already approved
 * are answered as they are.
 */
const approvePayouts = (ids: string[]) =>
  api<ApprovePayoutsResponse>('/api/admin/payouts/approve', {
    method: 'POST',
    body: { ids },
    // The server sends each approved payout to the provider before it answers, up to 10 s each: a batch
    // of 50 outlasts an ordinary call's 30 s (decision 2306). Sent again, it approves nothing twice.
    timeoutMs: REQUEST_TIMEOUT_MS + ids.length * PROVIDER_CALL_MS,
  });

export function useApprovePayouts() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: approvePayouts,
    // Read again either way: another admin may have approved some of them meanwhile.
    onSettled: () => qc.invalidateQueries({ queryKey: adminKeys.payouts() }),
  });
}

/** Rejects one payout still waiting, with the reason the lawyer is told. */
const rejectPayout = ({ id, reason }: { id: string; reason: string }) =>
  api<PayoutResponse>(`/api/admin/payouts/${encodeURIComponent(id)}/reject`, { method: 'POST', body: { reason } });

export function useRejectPayout() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: rejectPayout,
    onSettled: () => qc.invalidateQueries({ queryKey: adminKeys.payouts() }),
  });
}
