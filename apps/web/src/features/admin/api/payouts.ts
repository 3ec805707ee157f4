import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdminPayoutsResponse, ApprovePayoutsResponse, PayoutResponse } from '@legalmarket/contracts/payouts';
import { api } from '@/lib/http';
import { adminKeys } from './keys';
import { approveBudgetMs } from './long-calls';

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
    // The server sends each approved payout to the provider before it answers, up to ~32 s each with
    // its retries: even one outlasts an ordinary call's 30 s (decision 2306). Sent again, it approves
    // nothing twice.
    timeoutMs: approveBudgetMs(ids.length),
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
