import type { OrderView } from '@legalmarket/contracts/commerce';
import { api } from '@/lib/http';

export interface VerifyAnswer {
  status: 'success' | 'pending';
  message: string;
  data: { order: OrderView };
}

/** POST /api/checkout/verify: the server asks the provider and fulfils the order. */
export const verifyPayment = (reference: string, transactionId?: string) =>
  api<VerifyAnswer>('/api/checkout/verify', { method: 'POST', body: { reference, transactionId } });
