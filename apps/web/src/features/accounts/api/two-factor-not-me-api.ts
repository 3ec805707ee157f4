import { useMutation, useQuery } from '@tanstack/react-query';
import type {
  TwoFactorNotMeCheckResponse,
  TwoFactorNotMeInput,
  TwoFactorNotMeResponse,
} from '@legalmarket/contracts/two-factor';
import { api } from '@/lib/http';

export const notMeKeys = { link: (token: string) => ['two-factor-not-me', token] as const };

/** GET /api/two-factor/not-me: whether the link can be used. Changes nothing (decision 2220). */
export const useNotMeLink = (token: string) =>
  useQuery({
    queryKey: notMeKeys.link(token),
    queryFn: ({ signal }) =>
      api<TwoFactorNotMeCheckResponse>('/api/two-factor/not-me', { query: { token }, signal }).then((r) => r.data),
    enabled: token !== '',
    // A 4xx names what is wrong with the link: asking again would not change it.
    retry: false,
    // Once confirmed, the link is used: a second look would only say so over the answer shown.
    staleTime: Infinity,
  });

/** POST /api/two-factor/not-me: turns two-factor off and shuts out whoever enrolled it. */
export const useConfirmNotMe = () =>
  useMutation({
    mutationFn: (body: TwoFactorNotMeInput) =>
      api<TwoFactorNotMeResponse>('/api/two-factor/not-me', { method: 'POST', body }),
  });
