import type { CheckoutResponse } from '@legalmarket/contracts/commerce';
import { api } from '@/lib/http';

/** POST /api/checkout: the server snapshots the cart and answers what the payment dialog needs. */
export const startCheckout = () => api<CheckoutResponse>('/api/checkout', { method: 'POST' }).then((r) => r.data);
