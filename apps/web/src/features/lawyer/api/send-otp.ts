import { useMutation } from '@tanstack/react-query';
import type { OkMessage } from '@legalmarket/contracts/common';
import { api } from '@/lib/http';

/** E-mails a six-digit code for changing payout details. */
const sendPayoutCode = () => api<OkMessage>('/api/send-otp', { method: 'POST' });

export const useSendPayoutCode = () => useMutation({ mutationFn: sendPayoutCode });
