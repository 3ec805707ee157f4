import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  MyPlanResponse,
  PlanRequestInput,
  PlanTier,
  PlanView,
  SubscribeData,
  SubscriberRow,
} from '@legalmarket/contracts/plans';
import { api } from '@/lib/http';

export const planKeys = { mine: () => ['my-plan'] as const, subscribers: () => ['admin-subscribers'] as const };

type Answer<T> = { status: 'success'; message: string; data: T };

/** GET /api/plans/mine */
export const useMyPlan = () =>
  useQuery({
    queryKey: planKeys.mine(),
    queryFn: ({ signal }) => api<MyPlanResponse>('/api/plans/mine', { signal }).then((r) => r.data),
    refetchOnMount: 'always',
  });

/** POST /api/plans/subscribe: what the payment dialog needs for the first month. */
export const startPlan = (tier: PlanTier) =>
  api<Answer<SubscribeData>>('/api/plans/subscribe', { method: 'POST', body: { tier } }).then((r) => r.data);

/** POST /api/plans/confirm: the server asks the provider and starts the plan. */
export const confirmPlan = (reference: string, transactionId?: string) =>
  api<Answer<PlanView>>('/api/plans/confirm', { method: 'POST', body: { reference, transactionId } });

/** The plan page's actions; each answers the plan as it now is. */
export function usePlanActions() {
  const qc = useQueryClient();
  const done = (r: { data: PlanView } | Answer<{ plan: PlanView }>) =>
    qc.setQueryData(planKeys.mine(), 'plan' in r.data ? r.data.plan : r.data);
  return {
    changeTier: useMutation({
      mutationFn: (tier: PlanTier) => api<Answer<PlanView>>('/api/plans/mine/tier', { method: 'POST', body: { tier } }),
      onSuccess: done,
    }),
    cancel: useMutation({
      mutationFn: () => api<Answer<PlanView>>('/api/plans/mine/cancel', { method: 'POST' }),
      onSuccess: done,
    }),
    request: useMutation({
      mutationFn: (body: PlanRequestInput) =>
        api<Answer<{ jobId: string; plan: PlanView }>>('/api/plans/mine/requests', { method: 'POST', body }),
      onSuccess: (r) => {
        done(r);
        void qc.invalidateQueries({ queryKey: ['company-jobs'] });
      },
    }),
  };
}

/** GET /api/admin/subscribers */
export const useSubscribers = () =>
  useQuery({
    queryKey: planKeys.subscribers(),
    queryFn: ({ signal }) =>
      api<{ status: 'success'; data: SubscriberRow[] }>('/api/admin/subscribers', { signal }).then((r) => r.data),
    refetchOnMount: 'always',
  });
