import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { CartLine } from '@legalmarket/contracts/commerce';
import { messages } from '@legalmarket/contracts/messages';
import { setSession } from '@/lib/session';
import { renderPage, testQueryClient } from '@/test/render';
import CartPage from './cart-page';

vi.mock('@/components/product-carousel', () => ({ ProductCarousel: () => null }));

/**
 * The provider and the server of decision 2242: every opening of the dialog charges the card (a
 * provider transaction), and the server verifies a reference against what the provider holds.
 */
const world = vi.hoisted(() => ({
  transactions: [] as { id: number; txRef: string }[],
  paid: 0,
  verifyOffline: 0,
  /** Statuses the gateway answers the next verifications with, its own page and not ours. */
  gateway: [] as number[],
}));
vi.mock('@/features/checkout/flutterwave-loader', () => ({
  loadFlutterwave:
    async () => (config: { tx_ref: string; callback: (p: { status: string; transaction_id: number }) => void }) => {
      const id = world.transactions.length + 1;
      world.transactions.push({ id, txRef: config.tx_ref });
      config.callback({ status: 'successful', transaction_id: id });
    },
}));

const line: CartLine = {
  productId: 'p1',
  quantity: 1,
  detail: null,
  file: null,
  fileName: null,
  price: 1000,
  productName: 'Product p1',
  productImage: '/uploads/p1.png',
};

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** One pending order R1 (the same one while unpaid, as POST /api/checkout answers it within its day). */
async function server(input: RequestInfo | URL, init?: RequestInit) {
  const url = new URL(String(input), 'http://localhost');
  const route = `${init?.method ?? 'GET'} ${url.pathname}`;
  if (route === 'GET /api/cart') return json(world.paid ? [] : [{ products: [line], bill: 1000 }]);
  if (route === 'POST /api/checkout')
    return json({
      status: 'success',
      message: messages.checkoutSuccessful,
      data: {
        orderId: 'o1',
        reference: 'R1',
        amount: 1000,
        currency: 'NGN',
        title: 'Product p1',
        paymentOptions: 'card',
        customer: { email: 'a@b.ng', phone: '08012345678', name: 'Ada' },
        provider: { name: 'flutterwave', publicKey: 'pk', testMode: true },
      },
    });
  if (route === 'POST /api/checkout/verify') {
    // The phone went offline just after the charge: the first confirmation never arrives.
    if (world.verifyOffline-- > 0) throw new TypeError('Failed to fetch');
    const proxied = world.gateway.shift();
    if (proxied) return new Response(`<html><body>${proxied} Gateway</body></html>`, { status: proxied });
    const { reference } = JSON.parse(String(init?.body)) as { reference: string };
    if (!world.transactions.some((t) => t.txRef === reference))
      return json({ status: 'error', message: messages.paymentFailed }, 400);
    world.paid = 1; // paid once: a second transaction of a paid order buys nothing more
    return json({ status: 'success', message: messages.paymentSuccessful, data: { order: {} } });
  }
  throw new Error(`unexpected request: ${route}`);
}

describe('Purchase again after a lost confirmation (decision 2242)', { timeout: 30_000 }, () => {
  it('asks the server about the earlier payment first and charges the card once', async () => {
    Object.assign(world, { transactions: [], paid: 0, verifyOffline: 1 });
    vi.stubGlobal('fetch', vi.fn(server));
    setSession({ userToken: 't', userType: 'company', userId: 'c1' });
    const client = testQueryClient();
    client.setQueryData(['cart'], { products: [line], bill: 1000 });
    renderPage(<CartPage />, { client });

    await userEvent.click(screen.getByRole('button', { name: 'Purchase' }));
    const failed = await screen.findByRole('dialog', { name: messages.paymentFailed });
    expect(within(failed).getByText(/could not confirm your payment/)).toBeInTheDocument();
    expect(world.transactions).toHaveLength(1);
    await userEvent.click(within(failed).getByRole('button', { name: /close|ok/i }));

    // Within the two minutes before the background job looks, the company presses Purchase again.
    await userEvent.click(await screen.findByRole('button', { name: 'Purchase' }));
    const done = await screen.findByRole('dialog', { name: messages.paymentSuccessful });
    expect(within(done).getByText(messages.checkoutSuccessful)).toBeInTheDocument();
    expect(world.transactions).toHaveLength(1);
    expect(world.paid).toBe(1);
    expect(sessionStorage.getItem('checkout:c1:opened')).toBeNull();
  });

  it('a reference with nothing paid under it opens the dialog as usual', async () => {
    Object.assign(world, { transactions: [], paid: 0, verifyOffline: 0 });
    vi.stubGlobal('fetch', vi.fn(server));
    setSession({ userToken: 't', userType: 'company', userId: 'c1' });
    sessionStorage.setItem('checkout:c1:opened', 'R0');
    const client = testQueryClient();
    client.setQueryData(['cart'], { products: [line], bill: 1000 });
    renderPage(<CartPage />, { client });
    await userEvent.click(screen.getByRole('button', { name: 'Purchase' }));
    expect(await screen.findByRole('dialog', { name: messages.paymentSuccessful })).toBeInTheDocument();
    expect(world.transactions).toEqual([{ id: 1, txRef: 'R1' }]);
    expect(sessionStorage.getItem('checkout:c1:opened')).toBeNull();
  });

  it("reads a gateway's 502 or 504 on the verification as a lost answer, not a failed payment (decision 2307)", async () => {
    Object.assign(world, { transactions: [], paid: 0, verifyOffline: 0, gateway: [502, 504] });
    vi.stubGlobal('fetch', vi.fn(server));
    setSession({ userToken: 't', userType: 'company', userId: 'c1' });
    const client = testQueryClient();
    client.setQueryData(['cart'], { products: [line], bill: 1000 });
    renderPage(<CartPage />, { client });

    await userEvent.click(screen.getByRole('button', { name: 'Purchase' }));
    let failed = await screen.findByRole('dialog', { name: messages.paymentFailed });
    expect(within(failed).getByText(/could not confirm your payment/)).toBeInTheDocument();
    await userEvent.click(within(failed).getByRole('button', { name: /close|ok/i }));

    // The earlier payment is asked about first, and a 504 then is no answer either: nothing charged again.
    await userEvent.click(await screen.findByRole('button', { name: 'Purchase' }));
    failed = await screen.findByRole('dialog', { name: messages.paymentFailed });
    expect(within(failed).getByText(/could not confirm your payment/)).toBeInTheDocument();
    await userEvent.click(within(failed).getByRole('button', { name: /close|ok/i }));

    await userEvent.click(await screen.findByRole('button', { name: 'Purchase' }));
    expect(await screen.findByRole('dialog', { name: messages.paymentSuccessful })).toBeInTheDocument();
    expect(world.transactions).toHaveLength(1);
    expect(world.paid).toBe(1);
  });
});
