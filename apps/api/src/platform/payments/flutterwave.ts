import { createHmac, timingSafeEqual } from 'node:crypto';
import type {
  PaymentProvider,
  ProviderRefund,
  ProviderTransaction,
  ProviderTransfer,
  WebhookRequest,
} from './types.js';
import { ChargeRefused, ProviderUnavailable, RefundRefused, TransferRefused } from './types.js';

interface FlutterwaveOptions {
  publicKey: string;
  secretKey: string;
  secretHash: string;
  subaccountId?: string;
  /** https://api.flutterwave.com, or a local stand-in in tests. */
  apiUrl: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

const FLUTTERWAVE_SCRIPT = 'https://checkout.flutterwave.com/v3.js';

interface FlwTransaction {
  id: number | string;
  tx_ref: string;
  amount: number;
  /** What the customer was charged (naira): the amount, plus the fee when the customer bears it. */
  charged_amount?: number;
  currency: string;
  status: string;
  payment_type?: string;
  created_at?: string;
  /** Flutterwave's fee on the payment (naira): kept from what it settles, or added to the charge. */
  app_fee?: number;
  /** What reaches our balance (naira): the amount less `app_fee`, or the amount when the customer bore it. */
  amount_settled?: number;
  /** The payment plan a recurring charge was made on. */
  payment_plan?: number | string | null;
  card?: { token?: string } | null;
  customer?: { email?: string } | null;
}

/** Flutterwave's refund object (the refund answer, GET /v3/refunds/{id} and the refund webhook's data). */
interface FlwRefund {
  id: number | string;
  tx_id?: number | string;
  amount_refunded?: number;
  status?: string;
  created_at?: string;
}

function refundOf(d: FlwRefund, transactionId?: string): ProviderRefund {
  if (typeof d.amount_refunded !== 'number') throw new ProviderUnavailable('Unexpected refund answer');
  const status = String(d.status).toLowerCase();
  return {
    id: String(d.id),
    transactionId: d.tx_id !== undefined ? String(d.tx_id) : (transactionId ?? ''),
    status: status === 'completed' ? 'completed' : status === 'failed' ? 'failed' : 'pending',
    amount: Math.round(d.amount_refunded * 100),
    ...(d.created_at ? { createdAt: d.created_at } : {}),
  };
}

function transactionOf(d: FlwTransaction): ProviderTransaction {
  if (typeof d.amount !== 'number' || typeof d.tx_ref !== 'string') throw new ProviderUnavailable('Unexpected answer');
  return {
    id: String(d.id),
    txRef: d.tx_ref,
    status: String(d.status).toLowerCase(),
    amount: Math.round(d.amount * 100),
    ...(typeof d.charged_amount === 'number' ? { chargedAmount: Math.round(d.charged_amount * 100) } : {}),
    currency: String(d.currency).toUpperCase(),
    ...(typeof d.payment_type === 'string' && d.payment_type ? { paymentType: d.payment_type } : {}),
    ...(d.created_at ? { createdAt: d.created_at } : {}),
    ...(typeof d.app_fee === 'number' && d.app_fee >= 0 ? { fee: Math.round(d.app_fee * 100) } : {}),
    ...(typeof d.amount_settled === 'number' && Number.isFinite(d.amount_settled)
      ? { settledAmount: Math.round(d.amount_settled * 100) }
      : {}),
    ...(d.payment_plan !== undefined && d.payment_plan !== null && d.payment_plan !== ''
      ? { paymentPlan: String(d.payment_plan) }
      : {}),
    ...(typeof d.card?.token === 'string' && d.card.token ? { cardToken: d.card.token } : {}),
    ...(typeof d.customer?.email === 'string' && d.customer.email ? { customerEmail: d.customer.email } : {}),
  };
}

/** Flutterwave's list endpoints answer a page at a time; this many pages is more than a period can hold. */
const MAX_PAGES = 1000;

/** Flutterwave's transfer object (POST /v3/transfers, GET /v3/transfers/{id}, the transfer webhook's data). */
interface FlwTransfer {
  id: number | string;
  reference?: string;
  amount?: number;
  currency?: string;
  status?: string;
  complete_message?: string;
  /** Flutterwave's fee for the transfer (naira), debited from the balance beside the amount. */
  fee?: number;
  created_at?: string;
}

function transferOf(d: FlwTransfer): ProviderTransfer {
  if (typeof d.amount !== 'number' || typeof d.reference !== 'string')
    throw new ProviderUnavailable('Unexpected transfer answer');
  const status = String(d.status).toUpperCase();
  return {
    id: String(d.id),
    reference: d.reference,
    // NEW and PENDING are still in progress; SUCCESSFUL is final unless the bank later sends the money
    // back (FAILED or REVERSED after it), which returns it to the lawyer.
    status:
      status === 'SUCCESSFUL' ? 'successful' : status === 'FAILED' || status === 'REVERSED' ? 'failed' : 'pending',
    amount: Math.round(d.amount * 100),
    currency: String(d.currency).toUpperCase(),
    message: d.complete_message ?? null,
    ...(typeof d.fee === 'number' && d.fee >= 0 ? { fee: Math.round(d.fee * 100) } : {}),
    providerStatus: status.toLowerCase(),
    ...(d.created_at ? { createdAt: d.created_at } : {}),
  };
}

const same = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};
const header = (h: WebhookRequest['headers'], name: string) => {
  const v = h[name];
  return Array.isArray(v) ? v[0] : v;
};

/**
 * Flutterwave v3: inline checkout in the browser, verification on the server through
 * GET /v3/transactions/{id}/verify and GET /v3/transactions/verify_by_reference?tx_ref=.
 */
export function flutterwaveProvider(o: FlutterwaveOptions): PaymentProvider {
  const base = o.apiUrl.replace(/\/$/, '');
  const doFetch = o.fetch ?? fetch;

  async function get(path: string): Promise<ProviderTransaction | null> {
    let res: Response;
    try {
      res = await doFetch(`${base}${path}`, {
        headers: { authorization: `Bearer ${o.secretKey}`, accept: 'application/json' },
        signal: AbortSignal.timeout(o.timeoutMs ?? 10_000),
      });
    } catch (err) {
      throw new ProviderUnavailable(`Flutterwave unreachable: ${(err as Error).message}`);
    }
    let body: { status?: string; data?: FlwTransaction | null } | undefined;
    try {
      body = (await res.json()) as typeof body;
    } catch {
      body = undefined;
    }
    // Unknown ids and references answer 400/404 with status "error" and no data.
    if ((res.status === 400 || res.status === 404) && body?.status === 'error') return null;
    if (!res.ok || body?.status !== 'success' || !body.data) {
      throw new ProviderUnavailable(`Flutterwave answered ${res.status}`);
    }
    return transactionOf(body.data);
  }

  /**
   * Every page of a list endpoint (`meta.page_info.total_pages`) with these filters, or up to the first
   * page `done` says ends what is wanted.
   */
  async function list<T>(path: string, filters: Record<string, string>, done?: (page: T[]) => boolean): Promise<T[]> {
    const all: T[] = [];
    for (let page = 1; page <= MAX_PAGES; page++) {
      const q = new URLSearchParams({ ...filters, page: String(page) });
      let res: Response;
      try {
        res = await doFetch(`${base}${path}?${q}`, {
          headers: { authorization: `Bearer ${o.secretKey}`, accept: 'application/json' },
          signal: AbortSignal.timeout(o.timeoutMs ?? 10_000),
        });
      } catch (err) {
        throw new ProviderUnavailable(`Flutterwave unreachable: ${(err as Error).message}`);
      }
      let body: { status?: string; data?: T[]; meta?: { page_info?: { total_pages?: number } } } | undefined;
      try {
        body = (await res.json()) as typeof body;
      } catch {
        body = undefined;
      }
      if (!res.ok || body?.status !== 'success' || !Array.isArray(body.data))
        throw new ProviderUnavailable(`Flutterwave answered ${res.status}`);
      all.push(...body.data);
      const pages = body.meta?.page_info?.total_pages ?? 1;
      if (page >= pages || body.data.length === 0 || done?.(body.data)) return all;
    }
    throw new ProviderUnavailable('Flutterwave listed more pages than a period can hold');
  }

  /** One call: the JSON answer, or null for Flutterwave's "not found" (400/404 with status "error"). */
  async function call<T>(
    method: 'GET' | 'POST' | 'PUT',
    path: string,
    body?: unknown,
    onRefusal?: (message: string) => never,
  ): Promise<T | null> {
    let res: Response;
    try {
      res = await doFetch(`${base}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${o.secretKey}`,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(o.timeoutMs ?? 10_000),
      });
    } catch (err) {
      throw new ProviderUnavailable(`Flutterwave unreachable: ${(err as Error).message}`);
    }
    let answer: { status?: string; message?: string; data?: T | null } | undefined;
    try {
      answer = (await res.json()) as typeof answer;
    } catch {
      answer = undefined;
    }
    if ((res.status === 400 || res.status === 404) && answer?.status === 'error') {
      if (onRefusal) onRefusal(answer.message ?? 'Refused by Flutterwave');
      return null;
    }
    if (!res.ok || answer?.status !== 'success' || !answer.data)
      throw new ProviderUnavailable(`Flutterwave answered ${res.status}`);
    return answer.data;
  }

  return {
    name: 'flutterwave',
    publicSettings: () => ({
      publicKey: o.publicKey,
      subaccountId: o.subaccountId,
      scriptUrl: FLUTTERWAVE_SCRIPT,
      testMode: o.publicKey.startsWith('FLWPUBK_TEST'),
    }),
    verifyById: (id) => get(`/v3/transactions/${encodeURIComponent(id)}/verify`),
    verifyByReference: (txRef) => get(`/v3/transactions/verify_by_reference?tx_ref=${encodeURIComponent(txRef)}`),
    async refund(transactionId, amount, comments) {
      const d = await call<FlwRefund>('POST', `/v3/transactions/${encodeURIComponent(transactionId)}/refund`, {
        amount: amount / 100,
        comments,
      });
      if (!d) throw new RefundRefused('Flutterwave refused the refund');
      return refundOf(d, transactionId);
    },
    listTransactions: async ({ from, to }) =>
      (await list<FlwTransaction>('/v3/transactions', { from, to })).map(transactionOf),
    listRefunds: async ({ from, to }) => (await list<FlwRefund>('/v3/refunds', { from, to })).map((r) => refundOf(r)),
    async listTransfers(period) {
      // GET /v3/transfers takes only `page` and `status`, newest first: pages are read until one holds
      // nothing made on or after the period's first day (Lagos), then the period's transfers are kept.
      const from = Date.parse(`${period.from}T00:00:00+01:00`);
      const until = Date.parse(`${period.to}T00:00:00+01:00`) + 86_400_000;
      const made = (t: { created_at?: string }) => (t.created_at ? Date.parse(t.created_at) : NaN);
      const rows = await list<FlwTransfer>('/v3/transfers', {}, (page) => page.every((t) => made(t) < from));
      // One without a date cannot be placed: it is kept, and the reconciliation dates it to the period.
      return rows.filter((t) => Number.isNaN(made(t)) || (made(t) >= from && made(t) < until)).map(transferOf);
    },
    async fetchRefund(id) {
      if (!/^\d{1,15}$/.test(id)) return null;
      const d = await call<FlwRefund>('GET', `/v3/refunds/${id}`);
      return d ? refundOf(d) : null;
    },
    async resolveAccount(accountNumber, bankCode) {
      const d = await call<{ account_number?: string; account_name?: string }>('POST', '/v3/accounts/resolve', {
        account_number: accountNumber,
        account_bank: bankCode,
      });
      const name = d?.account_name?.trim();
      return name ? { accountName: name } : null;
    },
    async transfer(req) {
      const d = await call<FlwTransfer>(
        'POST',
        '/v3/transfers',
        {
          account_bank: req.bankCode,
          account_number: req.accountNumber,
          amount: req.amount / 100,
          currency: 'NGN',
          debit_currency: 'NGN',
          reference: req.reference,
          narration: req.narration,
        },
        (message) => {
          throw new TransferRefused(message);
        },
      );
      if (!d) throw new TransferRefused('Flutterwave refused the transfer');
      return transferOf(d);
    },
    async fetchTransfer(id) {
      if (!/^\d{1,15}$/.test(id)) return null;
      const d = await call<FlwTransfer>('GET', `/v3/transfers/${id}`);
      return d ? transferOf(d) : null;
    },
    async findTransfer(reference) {
      // The list filtered by our reference: empty when Flutterwave never made it.
      const q = new URLSearchParams({ reference });
      const d = await call<FlwTransfer[]>('GET', `/v3/transfers?${q}`);
      if (d !== null && !Array.isArray(d)) throw new ProviderUnavailable('Unexpected transfer list');
      const found = (d ?? []).find((x) => x.reference === reference);
      return found ? transferOf(found) : null;
    },
    async createPaymentPlan(plan) {
      const d = await call<{ id: number | string }>('POST', '/v3/payment-plans', {
        amount: plan.amount / 100,
        name: plan.name,
        interval: plan.interval,
        currency: 'NGN',
      });
      if (!d || d.id === undefined) throw new ProviderUnavailable('Flutterwave refused the payment plan');
      return { id: String(d.id) };
    },
    async chargePlan(req) {
      // Only a card can be charged again (Flutterwave's recurring payments are card-only): a first month
      // paid by transfer or USSD left no token, and waiting will not bring one.
      if (!req.token) throw new ChargeRefused('No saved card to charge');
      // A reference already used answers an error; the charge it made is then read back by reference.
      const d = await call<FlwTransaction>('POST', '/v3/tokenized-charges', {
        token: req.token,
        email: req.email,
        currency: 'NGN',
        country: 'NG',
        amount: req.amount / 100,
        tx_ref: req.reference,
        payment_plan: req.planId,
      });
      const tx = d
        ? transactionOf(d)
        : await get(`/v3/transactions/verify_by_reference?tx_ref=${encodeURIComponent(req.reference)}`);
      // Refused (an expired or unknown token) with nothing made under the reference: the month is unpaid.
      if (!tx) throw new ChargeRefused('Flutterwave refused the plan charge');
      return { ...tx, paymentPlan: tx.paymentPlan ?? req.planId };
    },
    async cancelPlanSubscription(planId, email) {
      const q = new URLSearchParams({ plan: planId, email });
      const list = await call<{ id: number | string; status?: string }[]>('GET', `/v3/subscriptions?${q}`);
      for (const s of Array.isArray(list) ? list : [])
        if (String(s.status).toLowerCase() === 'active') await call('PUT', `/v3/subscriptions/${s.id}/cancel`, {});
    },
    authenticWebhook({ headers, rawBody }) {
      if (!o.secretHash) return false;
      const verifHash = header(headers, 'verif-hash');
      if (verifHash && same(verifHash, o.secretHash)) return true;
      const signature = header(headers, 'flutterwave-signature');
      if (signature) {
        const mac = createHmac('sha256', o.secretHash).update(rawBody);
        const digest = mac.digest();
        return same(signature, digest.toString('base64')) || same(signature.toLowerCase(), digest.toString('hex'));
      }
      return false;
    },
  };
}
