import { createServer, type Server } from 'node:http';
import { SANDBOX_ACCOUNT_HOLDERS } from '../src/platform/payments/sandbox.js';
import { collectionFee, transferFee } from '../src/platform/payments/fees.js';

export const SECRET_KEY = 'FLWSECK_TEST-standin-secret-key-X';
export const SECRET_HASH = 'my-webhook-secret-hash-123';
export const PUBLIC_KEY = 'FLWPUBK_TEST-standin-public-key-X';

export interface FlwTx {
  id: number;
  tx_ref: string;
  flw_ref: string;
  amount: number;
  /** The amount, plus `app_fee` when the customer bears the fee. */
  charged_amount: number;
  /** Flutterwave's fee: kept from what it settles when the merchant bears it, added to the charge else. */
  app_fee: number;
  merchant_fee: number;
  /**
   * What reaches the merchant's balance: amount - app_fee when the merchant bears the fee, the amount
   * when the customer does. Read from the other fields when answered, so a test changing them moves it.
   */
  readonly amount_settled: number;
  currency: string;
  status: 'successful' | 'failed' | 'pending';
  payment_type: string;
  processor_response: string;
  /** Optional in Flutterwave's answer (a `pay` with `createdAt: null` leaves it out). */
  created_at?: string;
  customer: { email: string; name: string; phone_number: string };
  /** The payment plan a recurring charge was made on (null for a one-off payment). */
  payment_plan: number | null;
  card?: { token: string; last_4digits: string };
}

/** Flutterwave's payment plan (POST /v3/payment-plans) and a customer's subscription to one. */
export interface FlwPlan {
  id: number;
  name: string;
  amount: number;
  interval: string;
  currency: 'NGN';
  status: 'active' | 'cancelled';
  created_at: string;
}
export interface FlwSubscription {
  id: number;
  plan: number;
  customer: { customer_email: string };
  status: 'active' | 'cancelled';
  created_at: string;
}

/**
 * A local stand-in of Flutterwave's v3 API following its documented answers:
 * GET /v3/transactions/{id}/verify and GET /v3/transactions/verify_by_reference?tx_ref=, Bearer secret key,
 * `{ status: "success", message: "Transaction fetched successfully", data: {...} }`, and
 * `{ status: "error", message: "No transaction was found for this id", data: null }` (400) for unknown ones.
 */
/** Starts the stand-in on a free port and answers the app configuration that points at it. */
export async function listenStandIn(flw: ReturnType<typeof flutterwaveStandIn>, extra: Record<string, string> = {}) {
  await new Promise<void>((r) => flw.server.listen(0, '127.0.0.1', r));
  const { port } = flw.server.address() as import('node:net').AddressInfo;
  return {
    PAYMENT_PROVIDER: 'flutterwave',
    FLW_PUBLIC_KEY: PUBLIC_KEY,
    FLW_SECRET_KEY: SECRET_KEY,
    FLW_SECRET_HASH: SECRET_HASH,
    FLW_API_URL: `http://127.0.0.1:${port}`,
    ...extra,
  };
}

/** Flutterwave's refund object (POST /v3/transactions/{id}/refund, GET /v3/refunds/{id}). */
export interface FlwRefund {
  id: number;
  account_id: number;
  tx_id: number;
  flw_ref: string;
  wallet_id: number;
  amount_refunded: number;
  status: 'completed' | 'pending' | 'failed';
  destination: 'payment_source';
  meta: { source: 'availablebalance' };
  created_at: string;
}

/** Flutterwave's transfer object (POST /v3/transfers, GET /v3/transfers/{id}, `transfer.completed` data). */
export interface FlwTransfer {
  id: number;
  account_number: string;
  bank_code: string;
  full_name: string;
  created_at: string;
  currency: 'NGN';
  debit_currency: 'NGN';
  amount: number;
  fee: number;
  status: 'NEW' | 'PENDING' | 'SUCCESSFUL' | 'FAILED' | 'REVERSED';
  reference: string;
  meta: null;
  narration: string;
  complete_message: string;
  requires_approval: 0;
  is_approved: 1;
  bank_name: string;
}

export function flutterwaveStandIn(opts: { now?: () => Date } = {}) {
  /** The stand-in's time: when its transactions are made and its subscriptions fall due (a test's clock). */
  const now = opts.now ?? (() => new Date());
  const txs = new Map<number, FlwTx>();
  const refunds = new Map<number, FlwRefund>();
  let nextId = 288200108;
  /** The account's "Who should pay the transaction fee?" business preference (the merchant by default). */
  let feeBearer: 'merchant' | 'customer' = 'merchant';
  let nextRefundId = 75923;
  let down = false;
  /**
   * How the next refunds answer: completed at once (from the available balance), still pending, refused,
   * or `lose`: the refund is made (completed) but the answer is lost on the way back (a 504), or
   * `unavailable`: the request never reaches Flutterwave (a 503), nothing is made.
   */
  let refundMode: 'completed' | 'pending' | 'refuse' | 'lose' | 'unavailable' = 'completed';
  /** While set, a refund is made at once but its answer waits for this (an answer still on its way). */
  let refundResponseGate: Promise<void> | null = null;
  const calls: string[] = [];
  const transfers = new Map<number, FlwTransfer>();
  let nextTransferId = 396461;
  /**
   * How the next transfers answer: queued (NEW, finished later by completeTransfer), refused, or `lose`:
   * the transfer is made but every answer to the call is lost on the way back (a 504).
   */
  let transferMode: 'queue' | 'refuse' | 'lose' | 'drain' = 'queue';
  /**
   * `drain`: like `lose`, and the transfer spends the balance, so every later one (the same reference
   * too: the balance is checked before the reference) is refused for insufficient funds until the mode changes.
   */
  let drained = false;
  /** Names the bank holds, by account number; others get the sandbox's rule (0000 unknown). */
  const accounts = new Map<string, string>();
  const holderOf = (n: string) =>
    accounts.get(n) ?? (n.endsWith('0000') ? null : SANDBOX_ACCOUNT_HOLDERS[Number(n.at(-1))]);
  /** While set, transfer requests (POST /v3/transfers) wait here, unread, until let through in order. */
  let heldTransfers: (() => void)[] | null = null;
  /** While set, refund lookups (GET /v3/refunds/{id}) wait until `of` of them have come, then go together. */
  let lookupMeeting: { of: number; waiting: (() => void)[] } | null = null;
  const meet = (go: () => void) => {
    const m = lookupMeeting!;
    m.waiting.push(go);
    if (m.waiting.length < m.of) return;
    lookupMeeting = null;
    for (const f of m.waiting) f();
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const go = () => answer(req, res, Buffer.concat(chunks).toString('utf8'));
      if (heldTransfers && req.method === 'POST' && req.url === '/v3/transfers') heldTransfers.push(go);
      else if (lookupMeeting && req.method === 'GET' && /^\/v3\/refunds\/\d+$/.test(req.url ?? '')) meet(go);
      else go();
    });
  });
  const plans = new Map<number, FlwPlan>();
  const subscriptions = new Map<number, FlwSubscription>();
  let nextPlanId = 130_000;
  let nextSubscriptionId = 4_000;
  /** Each customer's saved card token (from a successful card payment). */
  const tokens = new Map<string, string>();
  /** Customers whose card declines from now on (a failed renewal). */
  const declining = new Set<string>();
  /** Customers whose saved token has expired (Flutterwave's tokens last a year): a charge is refused, none made. */
  const expiredTokens = new Set<string>();
  /**
   * When each subscription is next charged by Flutterwave itself, and the reference its charges are
   * named after: a month after the charge that subscribed the card, then monthly (the plan's interval).
   */
  const cycles = new Map<number, { due: Date; txRef: string; count: number }>();
  const subscribe = (plan: number, email: string, txRef: string, at: Date) => {
    const found = [...subscriptions.values()].find((x) => x.plan === plan && x.customer.customer_email === email);
    if (found?.status === 'active') return;
    const id = found?.id ?? nextSubscriptionId++;
    if (found) found.status = 'active';
    else
      subscriptions.set(id, {
        id,
        plan,
        customer: { customer_email: email },
        status: 'active',
        created_at: at.toISOString(),
      });
    cycles.set(id, { due: nextMonth(at), txRef, count: 0 });
  };
  const answer = (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse, raw: string) => {
    calls.push(`${req.method} ${req.url}`);
    const send = (code: number, body: unknown) => {
      res.writeHead(code, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (down) return send(502, { status: 'error', message: 'Bad gateway', data: null });
    if (req.headers.authorization !== `Bearer ${SECRET_KEY}`)
      return send(401, { status: 'error', message: 'Invalid authorization key', data: null });
    const url = new URL(req.url ?? '/', 'http://standin');
    let json: Record<string, unknown> = {};
    if ((req.method === 'POST' || req.method === 'PUT') && raw) {
      try {
        json = JSON.parse(raw) as typeof json;
      } catch {
        return send(400, { status: 'error', message: 'Invalid JSON', data: null });
      }
    }
    if (req.method === 'POST' && url.pathname === '/v3/payment-plans') {
      if (
        typeof json.amount !== 'number' ||
        !json.name ||
        !['daily', 'weekly', 'monthly', 'quarterly', 'yearly'].includes(String(json.interval))
      )
        return send(400, { status: 'error', message: 'Invalid payment plan', data: null });
      const plan: FlwPlan = {
        id: nextPlanId++,
        name: String(json.name),
        amount: json.amount,
        interval: String(json.interval),
        currency: 'NGN',
        status: 'active',
        created_at: now().toISOString(),
      };
      plans.set(plan.id, plan);
      return send(200, { status: 'success', message: 'Payment plan created', data: plan });
    }
    // A saved card charged on a payment plan: once per tx_ref, failing while the card is set to decline.
    if (req.method === 'POST' && url.pathname === '/v3/tokenized-charges') {
      const txRef = String(json.tx_ref ?? '');
      const email = String(json.email ?? '');
      if (!txRef || typeof json.amount !== 'number' || !json.token)
        return send(400, { status: 'error', message: 'Invalid tokenized charge', data: null });
      if ([...txs.values()].some((x) => x.tx_ref === txRef))
        return send(400, { status: 'error', message: 'Duplicate transaction reference', data: null });
      if (expiredTokens.has(email)) return send(400, { status: 'error', message: 'Token has expired', data: null });
      const token = tokens.get(email);
      const planId = Number(json.payment_plan) || null;
      const ok = token === json.token && !declining.has(email);
      // A successful charge with `payment_plan` subscribes the card (pay does it).
      const id = pay(txRef, json.amount, { status: ok ? 'successful' : 'failed', email, paymentPlan: planId });
      return send(200, { status: 'success', message: 'Charge successful', data: txs.get(id) });
    }
    if (req.method === 'GET' && url.pathname === '/v3/subscriptions') {
      const plan = Number(url.searchParams.get('plan')) || null;
      const email = url.searchParams.get('email');
      const rows = [...subscriptions.values()].filter(
        (x) => (!plan || x.plan === plan) && (!email || x.customer.customer_email === email),
      );
      return send(200, {
        status: 'success',
        message: 'Plan subscriptions fetched',
        meta: { page_info: { total: rows.length, current_page: 1, total_pages: 1 } },
        data: rows,
      });
    }
    const cancelSub = /^\/v3\/subscriptions\/(\d+)\/cancel$/.exec(url.pathname);
    if (req.method === 'PUT' && cancelSub) {
      const sub = subscriptions.get(Number(cancelSub[1]));
      if (!sub) return send(404, { status: 'error', message: 'No subscription found', data: null });
      sub.status = 'cancelled';
      return send(200, { status: 'success', message: 'Subscription cancelled', data: sub });
    }
    if (req.method === 'POST' && url.pathname === '/v3/accounts/resolve') {
      const number = String(json.account_number ?? '');
      const name = /^\d{10}$/.test(number) && json.account_bank ? holderOf(number) : null;
      if (!name)
        return send(400, {
          status: 'error',
          message: 'Sorry, that account number is invalid, please check and try again',
          data: null,
        });
      return send(200, {
        status: 'success',
        message: 'Account details fetched',
        data: { account_number: number, account_name: name },
      });
    }
    if (req.method === 'POST' && url.pathname === '/v3/transfers') {
      const reference = String(json.reference ?? '');
      const number = String(json.account_number ?? '');
      if (typeof json.amount !== 'number' || json.currency !== 'NGN' || !reference || !json.account_bank)
        return send(400, { status: 'error', message: 'Invalid transfer payload', data: null });
      if (transferMode === 'drain' && drained)
        return send(400, { status: 'error', message: 'Insufficient funds in customer balance', data: null });
      const lost = transferMode === 'lose' || transferMode === 'drain';
      if ([...transfers.values()].some((x) => x.reference === reference))
        return lost
          ? send(504, { status: 'error', message: 'Gateway timeout', data: null })
          : send(400, { status: 'error', message: 'Transfer with this reference already exists', data: null });
      if (transferMode === 'refuse')
        return send(400, { status: 'error', message: 'Insufficient funds in customer balance', data: null });
      const name = holderOf(number);
      if (!name) return send(400, { status: 'error', message: 'Account resolve failed', data: null });
      const id = nextTransferId++;
      const tr: FlwTransfer = {
        id,
        account_number: number,
        bank_code: String(json.account_bank),
        full_name: name,
        created_at: now().toISOString(),
        currency: 'NGN',
        debit_currency: 'NGN',
        amount: json.amount,
        fee: transferFee(Math.round(json.amount * 100)) / 100,
        status: 'NEW',
        reference,
        meta: null,
        narration: String(json.narration ?? ''),
        complete_message: '',
        requires_approval: 0,
        is_approved: 1,
        bank_name: 'STAND-IN BANK',
      };
      transfers.set(id, tr);
      if (transferMode === 'drain') drained = true;
      if (lost) return send(504, { status: 'error', message: 'Gateway timeout', data: null });
      return send(200, { status: 'success', message: 'Transfer Queued Successfully', data: tr });
    }
    // GET /v3/transfers: every transfer, newest first, 10 a page (`page`), no dates; `status` keeps one
    // status (SUCCESSFUL, FAILED, NEW, PENDING, any case), `reference` the merchant's one (empty when none).
    if (req.method === 'GET' && url.pathname === '/v3/transfers') {
      const reference = url.searchParams.get('reference');
      const status = url.searchParams.get('status')?.toUpperCase();
      const page = Math.max(1, Number(url.searchParams.get('page')) || 1);
      const rows = [...transfers.values()]
        .filter((x) => (!reference || x.reference === reference) && (!status || x.status === status))
        .sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id - a.id);
      const totalPages = Math.max(1, Math.ceil(rows.length / 10));
      return send(200, {
        status: 'success',
        message: 'Transfers fetched',
        meta: { page_info: { total: rows.length, current_page: page, total_pages: totalPages } },
        data: rows.slice((page - 1) * 10, page * 10),
      });
    }
    const transferById = /^\/v3\/transfers\/(\d+)$/.exec(url.pathname);
    if (req.method === 'GET' && transferById) {
      const tr = transfers.get(Number(transferById[1]));
      if (!tr) return send(404, { status: 'error', message: 'No transfer found', data: null });
      return send(200, { status: 'success', message: 'Transfer fetched', data: tr });
    }
    const refundOf = /^\/v3\/transactions\/(\d+)\/refund$/.exec(url.pathname);
    if (req.method === 'POST' && refundOf) {
      if (refundMode === 'unavailable')
        return send(503, { status: 'error', message: 'Service unavailable', data: null });
      const paid = txs.get(Number(refundOf[1]));
      if (!paid || paid.status !== 'successful')
        return send(400, { status: 'error', message: 'No transaction was found for this id', data: null });
      let body: { amount?: number } = {};
      try {
        body = raw ? (JSON.parse(raw) as typeof body) : {};
      } catch {
        return send(400, { status: 'error', message: 'Invalid JSON', data: null });
      }
      const before = [...refunds.values()]
        .filter((r) => r.tx_id === paid.id && r.status !== 'failed')
        .reduce((s, r) => s + r.amount_refunded, 0);
      const amount = body.amount ?? paid.amount - before;
      if (refundMode === 'refuse' || amount <= 0 || before + amount > paid.amount + 1e-9)
        return send(400, {
          status: 'error',
          message: 'Refund amount cannot be greater than transaction amount',
          data: null,
        });
      const id = nextRefundId++;
      const refund: FlwRefund = {
        id,
        account_id: 73362,
        tx_id: paid.id,
        flw_ref: `URF_${Date.now()}_${id}`,
        wallet_id: 74639,
        amount_refunded: amount,
        status: refundMode === 'lose' ? 'completed' : refundMode,
        destination: 'payment_source',
        meta: { source: 'availablebalance' },
        created_at: now().toISOString(),
      };
      refunds.set(id, refund);
      if (refundMode === 'lose') return send(504, { status: 'error', message: 'Gateway timeout', data: null });
      const reply = () => send(200, { status: 'success', message: 'Transaction refund initiated', data: refund });
      if (refundResponseGate) return void refundResponseGate.then(reply);
      return reply();
    }
    const refundById = /^\/v3\/refunds\/(\d+)$/.exec(url.pathname);
    if (req.method === 'GET' && refundById) {
      const r = refunds.get(Number(refundById[1]));
      if (!r) return send(400, { status: 'error', message: 'No refund found', data: null });
      return send(200, { status: 'success', message: 'Refund fetched', data: r });
    }
    // The list endpoints: from/to are days (YYYY-MM-DD, inclusive), 10 records a page, newest first.
    if (req.method === 'GET' && (url.pathname === '/v3/transactions' || url.pathname === '/v3/refunds')) {
      const from = url.searchParams.get('from') ?? '0000-00-00';
      const to = url.searchParams.get('to') ?? '9999-99-99';
      const page = Math.max(1, Number(url.searchParams.get('page')) || 1);
      const rows = [...(url.pathname === '/v3/refunds' ? refunds : txs).values()]
        .filter((r) => (r.created_at ?? '').slice(0, 10) >= from && (r.created_at ?? '').slice(0, 10) <= to)
        .reverse();
      const totalPages = Math.max(1, Math.ceil(rows.length / 10));
      return send(200, {
        status: 'success',
        message: url.pathname === '/v3/refunds' ? 'Refunds fetched' : 'Transactions fetched',
        meta: { page_info: { total: rows.length, current_page: page, total_pages: totalPages } },
        data: rows.slice((page - 1) * 10, page * 10),
      });
    }
    const byId = /^\/v3\/transactions\/(\d+)\/verify$/.exec(url.pathname);
    let tx: FlwTx | undefined;
    if (req.method === 'GET' && byId) {
      tx = txs.get(Number(byId[1]));
      if (!tx) return send(400, { status: 'error', message: 'No transaction was found for this id', data: null });
    } else if (req.method === 'GET' && url.pathname === '/v3/transactions/verify_by_reference') {
      const ref = url.searchParams.get('tx_ref');
      const all = [...txs.values()].filter((x) => x.tx_ref === ref);
      tx = all.find((x) => x.status === 'successful') ?? all.at(-1);
      if (!tx) return send(400, { status: 'error', message: 'No transaction was found for this id', data: null });
    } else {
      return send(404, { status: 'error', message: 'Not found', data: null });
    }
    return send(200, { status: 'success', message: 'Transaction fetched successfully', data: tx });
  };
  return {
    server,
    calls,
    txs,
    refunds,
    transfers,
    setTransferMode: (m: typeof transferMode) => {
      transferMode = m;
      drained = false;
    },
    /**
     * A slow provider: transfer requests made from now on wait unread until let through, each then
     * answered by the transfer mode of that moment.
     */
    holdTransfers() {
      const queue: (() => void)[] = [];
      heldTransfers = queue;
      return {
        waiting: () => queue.length,
        /** Lets the oldest waiting request through. */
        next: () => queue.shift()?.(),
        /** Stops holding: the waiting requests go through in order. */
        release: () => {
          heldTransfers = null;
          for (const go of queue.splice(0)) go();
        },
      };
    },
    /** The bank holds this account under this name. */
    setAccount: (accountNumber: string, name: string) => accounts.set(accountNumber, name),
    /** The provider finishes a queued transfer (its `transfer.completed` webhook then says so). */
    completeTransfer(id: number, status: 'SUCCESSFUL' | 'FAILED') {
      const tr = transfers.get(id);
      if (tr) {
        tr.status = status;
        tr.complete_message =
          status === 'SUCCESSFUL' ? 'Successful' : 'DISBURSE FAILED: Beneficiary account is dormant';
      }
      return tr;
    },
    /**
     * The beneficiary's bank sends a completed transfer back to the merchant's balance; Flutterwave then
     * reports it FAILED or REVERSED (its webhook then says so).
     */
    reverseTransfer(id: number, status: 'FAILED' | 'REVERSED' = 'REVERSED') {
      const tr = transfers.get(id);
      if (tr) {
        tr.status = status;
        tr.complete_message = 'Transfer reversed by the beneficiary bank';
      }
      return tr;
    },
    setRefundMode: (m: typeof refundMode) => {
      refundMode = m;
    },
    /** Refunds made from now on answer only when the returned function is called (then answers flow again). */
    holdRefundResponses() {
      let release!: () => void;
      refundResponseGate = new Promise((r) => (release = r));
      return () => {
        refundResponseGate = null;
        release();
      };
    },
    /**
     * The next `n` refund lookups are answered together, once all `n` have come (callers that asked at
     * the same moment, whatever the order their requests took to get here); after 5 s they go anyway.
     */
    meetRefundLookups(n: number) {
      const m = { of: n, waiting: [] as (() => void)[] };
      lookupMeeting = m;
      setTimeout(() => {
        if (lookupMeeting !== m) return;
        lookupMeeting = null;
        for (const f of m.waiting) f();
      }, 5000).unref();
    },
    /** The provider finishes a pending refund (its webhook then says so). */
    completeRefund(id: number) {
      const r = refunds.get(id);
      if (r) r.status = 'completed';
      return r;
    },
    setDown: (v: boolean) => {
      down = v;
    },
    /** Who bears the fee of the payments made from now on (the dashboard's business preference). */
    setFeeBearer: (v: typeof feeBearer) => {
      feeBearer = v;
    },
    pay,
    plans,
    subscriptions,
    /** The customer's saved card token has expired: tokenized charges are refused with a 400, nothing made. */
    expireToken(email: string) {
      expiredTokens.add(email);
    },
    /** The customer's card declines from now on (true) or pays again (false). */
    setDeclining(email: string, v: boolean) {
      if (v) declining.add(email);
      else declining.delete(email);
    },
    /**
     * Flutterwave's own billing cycle, run at the stand-in's time: every active subscription whose month
     * is due charges the saved card the plan's amount, with a reference Flutterwave makes (not the
     * merchant's), and carries `payment_plan`; answers the charges made (their `charge.completed`
     * webhooks are the test's to send).
     */
    runCycle(): FlwTx[] {
      const made: FlwTx[] = [];
      for (const sub of subscriptions.values()) {
        const cycle = cycles.get(sub.id);
        while (sub.status === 'active' && cycle && cycle.due <= now()) {
          const email = sub.customer.customer_email;
          const id = pay(`${cycle.txRef}_PMCKDU_${++cycle.count}`, plans.get(sub.plan)?.amount ?? 0, {
            status: declining.has(email) ? 'failed' : 'successful',
            email,
            paymentPlan: sub.plan,
            createdAt: cycle.due,
          });
          made.push(txs.get(id)!);
          cycle.due = nextMonth(cycle.due);
        }
      }
      return made;
    },
  };
  /** What the inline checkout would create when the customer pays (with `paymentPlan`, a recurring charge). */
  function pay(
    txRef: string,
    amount: number,
    opts: {
      currency?: string;
      status?: FlwTx['status'];
      paymentType?: string;
      /** `null`: the transaction carries no `created_at` (the field is optional in the answer). */
      createdAt?: Date | null;
      /** Naira; by default the documented local fee (1.4 % capped at ₦2,000) of a successful payment. */
      appFee?: number;
      email?: string;
      paymentPlan?: number | null;
      /**
       * Naira the customer was actually charged (`charged_amount`); by default the amount, plus the fee
       * when the customer bears it.
       */
      chargedAmount?: number;
    } = {},
  ) {
    const id = nextId++;
    const appFee =
      opts.appFee ??
      ((opts.status ?? 'successful') === 'successful' ? collectionFee(Math.round(amount * 100)) / 100 : 0);
    const customerPays = feeBearer === 'customer';
    txs.set(id, {
      id,
      tx_ref: txRef,
      flw_ref: `FLW-MOCK-${id}`,
      amount,
      charged_amount: opts.chargedAmount ?? (customerPays ? Math.round((amount + appFee) * 100) / 100 : amount),
      app_fee: appFee,
      merchant_fee: 0,
      get amount_settled() {
        return customerPays ? this.amount : Math.round((this.amount - this.app_fee) * 100) / 100;
      },
      currency: opts.currency ?? 'NGN',
      status: opts.status ?? 'successful',
      payment_type: opts.paymentType ?? 'card',
      processor_response: opts.status === 'failed' ? 'Insufficient Funds' : 'Approved by Financial Institution',
      ...(opts.createdAt === null ? {} : { created_at: (opts.createdAt ?? now()).toISOString() }),
      customer: { email: opts.email ?? 'ada@example.ng', name: 'Ada Obi', phone_number: '08012345678' },
      payment_plan: opts.paymentPlan ?? null,
      ...((opts.paymentType ?? 'card') === 'card' && (opts.status ?? 'successful') === 'successful'
        ? { card: { token: tokenOf(opts.email ?? 'ada@example.ng'), last_4digits: '2950' } }
        : {}),
    });
    // A successful charge on a plan subscribes the customer to it, as Flutterwave does (a subscription
    // already active stays as it is: Flutterwave keeps one per plan and e-mail).
    if (opts.paymentPlan && (opts.status ?? 'successful') === 'successful')
      subscribe(opts.paymentPlan, opts.email ?? 'ada@example.ng', txRef, opts.createdAt ?? now());
    return id;
  }
  function tokenOf(email: string) {
    if (!tokens.has(email)) tokens.set(email, `flw-t1nf-${tokens.size + 1}aa3f1e9c-m03k`);
    return tokens.get(email)!;
  }
}

/** The same day next month (the last day when next month is shorter), as Flutterwave's monthly interval. */
function nextMonth(d: Date): Date {
  const next = new Date(d.getTime());
  const day = next.getUTCDate();
  next.setUTCDate(1);
  next.setUTCMonth(next.getUTCMonth() + 1);
  next.setUTCDate(Math.min(day, new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 0)).getUTCDate()));
  return next;
}
