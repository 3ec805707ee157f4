import { useMutation } from '@tanstack/react-query';
import type { OkMessage } from '@legalmarket/contracts/common';
import { api } from '@/lib/http';

/** Sends the six digits joined; a right code opens a 10-minute window for one change. */
const confirmPayoutCode = (otp: string) => api<OkMessage>('/api/confirm-otp', { method: 'POST', body: { otp } });

export const useConfirmPayoutCode = () => useMutation({ mutationFn: confirmPayoutCode });
