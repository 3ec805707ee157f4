import type { SandboxChargeInput } from '@legalmarket/contracts/commerce';
import { api } from '@/lib/http';

export interface SandboxChargeResult {
  status: 'successful' | 'failed';
  transaction_id: string;
  tx_ref: string;
  processor_response: string;
}

/** POST /api/checkout/sandbox/charge: the offline dialog's payment, recorded for server verification. */
export const sandboxCharge = (body: SandboxChargeInput) =>
  api<{ data: SandboxChargeResult }>('/api/checkout/sandbox/charge', { method: 'POST', body }).then((r) => r.data);
