import { useMutation } from '@tanstack/react-query';
import type { OkMessage } from '@legalmarket/contracts/common';
import { payoutCodeStillValid } from '@legalmarket/contracts/lawyers';
import { api } from '@/lib/http';

/** The answer, and whether nothing new was sent because the code mailed under a minute ago stands. */
export type SendPayoutCodeResult = OkMessage & { codeStillValid: boolean };

/**
 * E-mails a six-digit code for changing payout details. Asked again within a minute the server sends
 * nothing and says when to ask again in Retry-After; the page then says the earlier code still works
 * (decision 2312) rather than "sent".
 */
async function sendPayoutCode(): Promise<SendPayoutCodeResult> {
  let wait = 0;
  const res = await api<OkMessage>('/api/send-otp', {
    method: 'POST',
    onHeaders: (h) => {
      const n = Number(h.get('retry-after'));
      wait = Number.isFinite(n) && n > 0 ? Math.ceil(n) : 0;
    },
  });
  return wait
    ? { ...res, message: payoutCodeStillValid(wait), codeStillValid: true }
    : { ...res, codeStillValid: false };
}

export const useSendPayoutCode = () => useMutation({ mutationFn: sendPayoutCode });
