import type { VerifyPaymentAnswer } from '@legalmarket/contracts/commerce';
import { api } from '@/lib/http';

export type VerifyAnswer = VerifyPaymentAnswer;

/** POST /api/checkout/verify: the server asks the provider and fulfils the order. */
export const verifyPayment = (reference: string, transactionId?: string) =>
  api<VerifyAnswer>('/api/checkout/verify', { method: 'POST', body: { reference, transactionId } });
