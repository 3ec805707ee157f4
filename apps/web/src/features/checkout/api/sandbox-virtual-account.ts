import type { SandboxVirtualAccount } from '@legalmarket/contracts/commerce';
import { api } from '@/lib/http';

/** POST /api/checkout/sandbox/virtual-account: the temporary account the sandbox's bank transfer goes to. */
export const sandboxVirtualAccount = (reference: string, signal?: AbortSignal) =>
  api<{ status: 'success'; data: SandboxVirtualAccount }>('/api/checkout/sandbox/virtual-account', {
    method: 'POST',
    body: { reference },
    signal,
  }).then((r) => r.data);
