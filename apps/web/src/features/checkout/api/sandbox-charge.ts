import type { SandboxChargeResponse, SandboxChargeInput } from '@legalmarket/contracts/commerce';
import { api } from '@/lib/http';

/** POST /api/checkout/sandbox/charge: the offline dialog's payment, recorded for server verification. */
export const sandboxCharge = (body: SandboxChargeInput) =>
  api<SandboxChargeResponse>('/api/checkout/sandbox/charge', { method: 'POST', body }).then((r) => r.data);
