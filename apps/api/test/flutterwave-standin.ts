import { createServer, type Server } from 'node:http';

export const SECRET_KEY = 'FLWSECK_TEST-standin-secret-key-X';
export const SECRET_HASH = 'my-webhook-secret-hash-123';
export const PUBLIC_KEY = 'FLWPUBK_TEST-standin-public-key-X';

export interface FlwTx {
  id: number;
  tx_ref: string;
  flw_ref: string;
  amount: number;
  charged_amount: number;
  currency: string;
  status: 'successful' | 'failed' | 'pending';
  payment_type: string;
  processor_response: string;
  created_at: string;
  customer: { email: string; name: string; phone_number: string };
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

export function flutterwaveStandIn() {
  const txs = new Map<number, FlwTx>();
  let nextId = 288200108;
  let down = false;
  const calls: string[] = [];
  const server: Server = createServer((req, res) => {
    calls.push(`${req.method} ${req.url}`);
    const send = (code: number, body: unknown) => {
      res.writeHead(code, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (down) return send(502, { status: 'error', message: 'Bad gateway', data: null });
    if (req.headers.authorization !== `Bearer ${SECRET_KEY}`)
      return send(401, { status: 'error', message: 'Invalid authorization key', data: null });
    const url = new URL(req.url ?? '/', 'http://standin');
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
  });
  return {
    server,
    calls,
    setDown: (v: boolean) => {
      down = v;
    },
    /** What the inline checkout would create when the customer pays. */
    pay(txRef: string, amount: number, opts: { currency?: string; status?: FlwTx['status'] } = {}) {
      const id = nextId++;
      txs.set(id, {
        id,
        tx_ref: txRef,
        flw_ref: `FLW-MOCK-${id}`,
        amount,
        charged_amount: amount,
        currency: opts.currency ?? 'NGN',
        status: opts.status ?? 'successful',
        payment_type: 'card',
        processor_response: opts.status === 'failed' ? 'Insufficient Funds' : 'Approved by Financial Institution',
        created_at: new Date().toISOString(),
        customer: { email: 'ada@example.ng', name: 'Ada Obi', phone_number: '08012345678' },
      });
      return id;
    },
  };
}
