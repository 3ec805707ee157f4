import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { CartLine } from '@legalmarket/contracts/commerce';
import { messages } from '@legalmarket/contracts/messages';
import { setSession } from '@/lib/session';
import { jsonFetch, renderPage, testQueryClient } from '@/test/render';
import CartPage from './cart-page';

// The carousel reads the catalogue; it is not what these tests are about.
vi.mock('@/components/product-carousel', () => ({ ProductCarousel: () => null }));
// The provider's dialog reports a successful card payment at once, unless a test makes its script fail.
const loader = vi.hoisted(() => ({ fails: false }));
vi.mock('@/features/checkout/flutterwave-loader', () => ({
  loadFlutterwave: async () => {
    if (loader.fails) throw new Error('Unable to load flutterwave payment modal');
    return (config: { callback: (p: { status: string; transaction_id: number }) => void }) => {
      config.callback({ status: 'successful', transaction_id: 7 });
    };
  },
}));

const line = (id: string, price: number): CartLine => ({
  productId: id,
  quantity: 1,
  detail: null,
  file: null,
  fileName: null,
  price,
  productName: `Product ${id}`,
  productImage: `/uploads/${id}.png`,
});

/** The element holding focus, unless focus fell back to the page (<body>, which contains everything). */
const focusedNotice = () => (document.activeElement === document.body ? null : document.activeElement);

function companyCart(lines: CartLine[]) {
  setSession({ userToken: 't', userType: 'company', userId: 'c1' });
  const client = testQueryClient();
  client.setQueryData(['cart'], { products: lines, bill: lines.reduce((s, l) => s + l.price, 0) });
  renderPage(<CartPage />, { client });
}

describe('/cart success messages (spec section 8)', { timeout: 30_000 }, () => {
  it('says "Product removed from the cart" after Remove', async () => {
    const left = [line('p2', 2000)];
    const { fn } = jsonFetch({
      'DELETE /api/cart/p1': () => ({ body: { status: 'success', message: messages.productRemovedFromCart } }),
      'GET /api/cart': () => ({ body: [{ products: left, bill: 2000 }] }),
    });
    vi.stubGlobal('fetch', fn);
    companyCart([line('p1', 1000), ...left]);
    await userEvent.click(screen.getByRole('button', { name: 'Remove Product p1' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Product removed from the cart');
  });

  it('puts a removed line back as it was with Undo', async () => {
    const removedLine = {
      ...line('p1', 1000),
      quantity: 2,
      detail: 'Two directors',
      file: '/uploads/brief.pdf',
      fileName: 'brief.pdf',
    };
    const left = [line('p2', 2000)];
    let sent: unknown = null;
    let lines: CartLine[] = left;
    const { fn } = jsonFetch({
      'DELETE /api/cart/p1': () => ({ body: { status: 'success', message: messages.productRemovedFromCart } }),
      'POST /api/cart': (init) => {
        sent = JSON.parse(String(init?.body));
        lines = [...left, removedLine];
        return { body: { status: 'success', message: 'Added', data: [{ products: lines, bill: 4000 }], notes: [] } };
      },
      'GET /api/cart': () => ({ body: [{ products: lines, bill: lines.reduce((s, l) => s + l.price, 0) }] }),
    });
    vi.stubGlobal('fetch', fn);
    companyCart([removedLine, ...left]);
    await userEvent.click(screen.getByRole('button', { name: 'Remove Product p1' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Product removed from the cart');
    await userEvent.click(screen.getByRole('button', { name: 'Undo: put Product p1 back in the cart' }));
    expect(await screen.findByText('Product p1 is back in your cart')).toBeInTheDocument();
    expect(sent).toEqual({
      productId: 'p1',
      quantity: 2,
      detail: 'Two directors',
      file: '/uploads/brief.pdf',
      fileName: 'brief.pdf',
    });
    expect(await screen.findByRole('button', { name: 'Remove Product p1' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Undo/ })).not.toBeInTheDocument();
  });

  it('keeps focus near what Remove, Undo and Clear Cart did, not on the page top, for a keyboard or a screen reader', async () => {
    const left = [line('p2', 2000)];
    let lines: CartLine[] = left;
    const { fn } = jsonFetch({
      'DELETE /api/cart/p1': () => ({ body: { status: 'success', message: messages.productRemovedFromCart } }),
      'POST /api/cart': () => {
        lines = [...left, line('p1', 1000)];
        return { body: { status: 'success', message: 'Added', data: [{ products: lines, bill: 3000 }], notes: [] } };
      },
      'GET /api/cart': () => ({ body: [{ products: lines, bill: lines.reduce((s, l) => s + l.price, 0) }] }),
      'POST /api/clear-cart': () => {
        lines = [];
        return { body: { status: 'success', message: messages.cartCleared } };
      },
    });
    vi.stubGlobal('fetch', fn);
    companyCart([line('p1', 1000), ...left]);
    await userEvent.click(screen.getByRole('button', { name: 'Remove Product p1' }));
    const undo = await screen.findByRole('button', { name: 'Undo: put Product p1 back in the cart' });
    await vi.waitFor(() => expect(undo).toHaveFocus());
    await userEvent.click(undo);
    const back = await screen.findByText('Product p1 is back in your cart');
    await vi.waitFor(() => expect(focusedNotice()).toContainElement(back));
    await screen.findByRole('button', { name: 'Remove Product p1' });
    await userEvent.click(screen.getByRole('button', { name: 'Clear Cart' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Clear Cart' }));
    const cleared = await screen.findByText(messages.cartCleared);
    await vi.waitFor(() => expect(focusedNotice()).toContainElement(cleared));
  });

  it("keeps focus on the notice after a visitor's Remove and Clear Cart", async () => {
    localStorage.setItem(
      'reservedItems',
      JSON.stringify([
        { productId: 'p1', productPrice: 1000, productName: 'Product p1', productImage: '/p1.png', quantity: 1 },
        { productId: 'p2', productPrice: 2000, productName: 'Product p2', productImage: '/p2.png', quantity: 1 },
      ]),
    );
    renderPage(<CartPage />);
    await userEvent.click(screen.getByRole('button', { name: 'Remove Product p1' }));
    expect(focusedNotice()).toContainElement(screen.getByText(messages.productRemovedFromCart));
    await userEvent.click(screen.getByRole('button', { name: 'Clear Cart' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Clear Cart' }));
    expect(focusedNotice()).toContainElement(screen.getByText(messages.cartCleared));
  });

  it('says "Cart cleared successfully" after Clear Cart', async () => {
    const { fn } = jsonFetch({
      'POST /api/clear-cart': () => ({ body: { status: 'success', message: messages.cartCleared } }),
    });
    vi.stubGlobal('fetch', fn);
    companyCart([line('p1', 1000)]);
    await userEvent.click(screen.getByRole('button', { name: 'Clear Cart' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Clear Cart' }));
    expect(await screen.findByText('Cart cleared successfully')).toHaveAttribute('role', 'status');
    expect(screen.getByText('Your cart is empty')).toBeInTheDocument();
  });

  it('says "Checkout successful!" with "Payment successful!" once the server confirms the payment', async () => {
    const { fn } = jsonFetch({
      'POST /api/checkout': () => ({
        body: {
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
        },
      }),
      'POST /api/checkout/verify': () => ({
        body: { status: 'success', message: messages.paymentSuccessful, data: { order: {} } },
      }),
      'GET /api/cart': () => ({ body: [] }),
    });
    vi.stubGlobal('fetch', fn);
    companyCart([line('p1', 1000)]);
    await userEvent.click(screen.getByRole('button', { name: 'Purchase' }));
    const dialog = await screen.findByRole('dialog', { name: 'Payment successful!' });
    expect(within(dialog).getByText('Checkout successful!')).toBeInTheDocument();
  });

  it("says so for a visitor's reserved items too", async () => {
    localStorage.setItem(
      'reservedItems',
      JSON.stringify([
        { productId: 'p1', productPrice: 1000, productName: 'Product p1', productImage: '/p1.png', quantity: 1 },
        { productId: 'p2', productPrice: 2000, productName: 'Product p2', productImage: '/p2.png', quantity: 1 },
      ]),
    );
    renderPage(<CartPage />);
    await userEvent.click(screen.getByRole('button', { name: 'Remove Product p1' }));
    expect(screen.getByRole('status')).toHaveTextContent('Product removed from the cart');
    await userEvent.click(screen.getByRole('button', { name: 'Clear Cart' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Clear Cart' }));
    expect(screen.getByRole('status')).toHaveTextContent('Cart cleared successfully');
  });

  it("keeps a visitor's reservations when Purchase sends them to sign-up (decision 1800)", async () => {
    const stored = JSON.stringify([
      { productId: 'p1', productPrice: 1000, productName: 'Product p1', productImage: '/p1.png', quantity: 1 },
    ]);
    localStorage.setItem('reservedItems', stored);
    renderPage(<CartPage />);
    await userEvent.click(screen.getByRole('button', { name: 'Purchase' }));
    expect(localStorage.getItem('reservedItems')).toBe(stored);
  });
});

describe('/cart when the payment window cannot open', { timeout: 30_000 }, () => {
  const checkout = () =>
    jsonFetch({
      'POST /api/checkout': () => ({
        body: {
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
        },
      }),
    });

  it('offline, says there is no connection and nothing was charged (issue 18, trap 8)', async () => {
    loader.fails = true;
    const online = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    try {
      vi.stubGlobal('fetch', checkout().fn);
      companyCart([line('p1', 1000)]);
      await userEvent.click(screen.getByRole('button', { name: 'Purchase' }));
      const dialog = await screen.findByRole('dialog', { name: 'No internet connection' });
      expect(dialog).toHaveTextContent(/nothing was charged/);
    } finally {
      loader.fails = false;
      online.mockRestore();
    }
  });

  it("online, it is the spec's failure with the loader's message", async () => {
    loader.fails = true;
    try {
      vi.stubGlobal('fetch', checkout().fn);
      companyCart([line('p1', 1000)]);
      await userEvent.click(screen.getByRole('button', { name: 'Purchase' }));
      const dialog = await screen.findByRole('dialog', { name: messages.paymentFailed });
      expect(dialog).toHaveTextContent('Unable to load flutterwave payment modal');
    } finally {
      loader.fails = false;
    }
  });
});
