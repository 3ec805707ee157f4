import type { VerifyPaymentResponse } from '@legalmarket/contracts/commerce';
import { api } from '@/lib/http';

export type VerifyResponse = VerifyPaymentResponse;

/** POST /api/checkout/verify: the server asks the provider and fulfils the order. */
export const verifyPayment = (reference: string, transactionId?: string) =>
  api<VerifyResponse>('/api/checkout/verify', { method: 'POST', body: { reference, transactionId } });
