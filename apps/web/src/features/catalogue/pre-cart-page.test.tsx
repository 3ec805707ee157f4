import { describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { productFixture } from '@/test/product-fixture';
import { setSession } from '@/lib/session';
import { stubInstantUpload } from '@/test/instant-upload';
import { jsonFetch, renderPage, testQueryClient } from '@/test/render';
import { readReservedItems } from '@/features/cart/reserved-items';
import PreCartPage from './pre-cart-page';

const ID = '33333333-3333-4333-8333-333333333333';
const PRODUCT = productFixture({
  _id: ID,
  productName: 'Tenancy agreement',
  productPrice: 15000,
  productDescription: 'A tenancy agreement drafted for you.',
  productImage: '/uploads/t.png',
});

function open() {
  const client = testQueryClient();
  client.setQueryData(['products', ID], PRODUCT);
  client.setQueryData(['products'], { status: 'success', results: 1, products: [PRODUCT] });
  client.setQueryData(['reviews', ID], []);
  renderPage(<PreCartPage />, { path: '/pre-cart/:productId', at: `/pre-cart/${ID}`, client });
  return screen.getByRole('form', { name: 'Reserve this product' });
}

describe('Reserve (react-hook-form with the contract schema, loaded on first use)', () => {
  it('keeps a visitor reservation with the chosen quantity and the trimmed details', async () => {
    const form = open();
    await userEvent.selectOptions(within(form).getByLabelText('Quantity'), '3');
    await userEvent.type(within(form).getByLabelText('Give details'), '  Two landlords.  ');
    await userEvent.click(within(form).getByRole('button', { name: 'Reserve' }));
    expect(await screen.findByText('elsewhere')).toBeVisible();
    expect(readReservedItems()).toEqual([
      {
        productId: ID,
        productName: 'Tenancy agreement',
        productPrice: 15000,
        productImage: '/uploads/t.png',
        quantity: 3,
        detail: 'Two landlords.',
        file: null,
        fileName: null,
        reservationId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      },
    ]);
  });

  it('adds to a product already reserved and says what happened (decision 1800)', async () => {
    const form = open();
    await userEvent.type(within(form).getByLabelText('Give details'), 'Two landlords.');
    await userEvent.click(within(form).getByRole('button', { name: 'Reserve' }));
    expect(await screen.findByText('elsewhere')).toBeVisible();
    const first = readReservedItems()[0].reservationId;
    const again = open();
    await userEvent.selectOptions(within(again).getByLabelText('Quantity'), '2');
    await userEvent.type(within(again).getByLabelText('Give details'), 'A shop on the ground floor.');
    await userEvent.click(within(again).getByRole('button', { name: 'Reserve' }));
    await vi.waitFor(() => expect(readReservedItems()[0].quantity).toBe(3));
    const [line] = readReservedItems();
    expect(line.detail).toBe('Two landlords.\n\nA shop on the ground floor.');
    // A grown reservation is a new one for the move: an earlier move of the first never hides it.
    expect(line.reservationId).not.toBe(first);
  });

  it('refuses details longer than the contract allows, with its message', async () => {
    const form = open();
    // A value longer than the field's own limit, as a script or autofill may set it.
    fireEvent.change(within(form).getByLabelText('Give details'), { target: { value: 'x'.repeat(5001) } });
    await userEvent.click(within(form).getByRole('button', { name: 'Reserve' }));
    expect(await within(form).findByText('Details must be at most 5000 characters')).toBeVisible();
    expect(within(form).getByLabelText('Give details')).toHaveAttribute('aria-invalid', 'true');
    expect(readReservedItems()).toEqual([]);
    expect(screen.queryByText('elsewhere')).toBeNull();
  });

  it("adds to a company's cart with the body the contract gives", async () => {
    setSession({ userToken: 't', userType: 'company', userId: 'c1' });
    const api = jsonFetch({
      'POST /api/cart': () => ({ body: { status: 'success', message: 'Added to cart', data: [], notes: [] } }),
      'GET /api/cart': () => ({ body: [] }),
    });
    vi.stubGlobal('fetch', api.fn);
    const form = open();
    await userEvent.selectOptions(within(form).getByLabelText('Quantity'), '2');
    await userEvent.click(within(form).getByRole('button', { name: 'Reserve' }));
    expect(await within(form).findByRole('status')).toHaveTextContent('Added to cart');
    const post = api.calls.find((c) => c.method === 'POST');
    expect(JSON.parse(String(post?.init?.body))).toEqual({ productId: ID, quantity: 2 });
  });

  it('says what happened to a line already in the cart after the spec message', async () => {
    setSession({ userToken: 't', userType: 'company', userId: 'c1' });
    const note = 'Tenancy agreement was already in your cart: the quantity is now 3.';
    const api = jsonFetch({
      'POST /api/cart': () => ({
        status: 201,
        body: { status: 'success', message: 'You have successfully added to cart', data: [], notes: [note] },
      }),
      'GET /api/cart': () => ({ body: [] }),
    });
    vi.stubGlobal('fetch', api.fn);
    const form = open();
    await userEvent.click(within(form).getByRole('button', { name: 'Reserve' }));
    expect(await within(form).findByRole('status')).toHaveTextContent(`You have successfully added to cart ${note}`);
  });
});

describe("the company's brief (decision 2226)", { timeout: 30_000 }, () => {
  it('keeps the brief through a failed add and a reload, and drops it once in the cart', async () => {
    setSession({ userToken: 't', userType: 'company', userId: 'c1' });
    let posts = 0;
    const api = jsonFetch({
      'POST /api/cart': () =>
        ++posts === 1
          ? { status: 503, body: { message: 'Service unavailable' } }
          : { body: { status: 'success', message: 'Added to cart', data: [], notes: [] } },
      'GET /api/cart': () => ({ body: [] }),
    });
    vi.stubGlobal('fetch', api.fn);
    const brief = 'Two landlords, one tenant; the lease starts on 1 January and the rent is paid yearly.';
    let form = open();
    await userEvent.type(within(form).getByLabelText('Give details'), brief);
    await userEvent.click(within(form).getByRole('button', { name: 'Reserve' }));
    expect(await within(form).findByText('Service unavailable')).toBeVisible();
    expect(within(form).getByLabelText('Give details')).toHaveValue(brief);
    expect(within(form).getByRole('button', { name: 'Reserve' })).toBeEnabled();

    cleanup();
    form = open();
    await vi.waitFor(() => expect(within(form).getByLabelText('Give details')).toHaveValue(brief));
    await userEvent.click(within(form).getByRole('button', { name: 'Reserve' }));
    expect(await within(form).findByRole('status')).toHaveTextContent('Added to cart');
    expect(JSON.parse(String(api.calls.filter((c) => c.method === 'POST')[1].init?.body))).toMatchObject({
      detail: brief,
    });
    expect(localStorage.getItem(`draft:c1:brief:${ID}`)).toBeNull();
  });

  it('keeps an uploaded document with the brief through a reload, and sends it', async () => {
    setSession({ userToken: 't', userType: 'company', userId: 'c1' });
    const api = jsonFetch({
      'POST /api/cart': () => ({ body: { status: 'success', message: 'Added to cart', data: [], notes: [] } }),
      'GET /api/cart': () => ({ body: [] }),
    });
    vi.stubGlobal('fetch', api.fn);
    stubInstantUpload({ fileName: 'signed-lease-scan.pdf', url: '/uploads/k1.pdf' });
    let form = open();
    await userEvent.upload(
      within(form).getByLabelText('Upload a document (optional)'),
      new File(['%PDF-1.4'], 'signed-lease-scan.pdf', { type: 'application/pdf' }),
    );
    expect(await within(form).findByRole('button', { name: 'Remove signed-lease-scan.pdf' })).toBeVisible();

    cleanup();
    form = open();
    expect(await within(form).findByRole('button', { name: 'Remove signed-lease-scan.pdf' })).toBeVisible();
    await userEvent.click(within(form).getByRole('button', { name: 'Reserve' }));
    expect(await within(form).findByRole('status')).toHaveTextContent('Added to cart');
    expect(JSON.parse(String(api.calls.find((c) => c.method === 'POST')?.init?.body))).toMatchObject({
      file: '/uploads/k1.pdf',
      fileName: 'signed-lease-scan.pdf',
    });
    expect(localStorage.getItem(`draft:c1:brief:${ID}`)).toBeNull();
  });

  it("keeps nothing of a visitor's typing", async () => {
    const form = open();
    await userEvent.type(within(form).getByLabelText('Give details'), 'Two landlords.');
    expect(localStorage.length).toBe(0);
  });
});

describe('an addition sent again (decision 2240)', { timeout: 30_000 }, () => {
  it('goes under the same Idempotency-Key after a lost answer and a reload, and a new one once added', async () => {
    setSession({ userToken: 't', userType: 'company', userId: 'c1' });
    let posts = 0;
    const api = jsonFetch({
      'POST /api/cart': () => {
        // The first two reach the server, whose answers are lost on the way back.
        if (++posts <= 2) throw new TypeError('Failed to fetch');
        return { status: 201, body: { status: 'success', message: 'Added to cart', data: [], notes: [] } };
      },
      'GET /api/cart': () => ({ body: [] }),
    });
    vi.stubGlobal('fetch', api.fn);
    const keys = () =>
      api.calls
        .filter((c) => c.method === 'POST')
        .map((c) => (c.init?.headers as Record<string, string>)['idempotency-key']);
    let form = open();
    await userEvent.selectOptions(within(form).getByLabelText('Quantity'), '2');
    await userEvent.type(within(form).getByLabelText('Give details'), 'Two landlords.');
    await userEvent.click(within(form).getByRole('button', { name: 'Reserve' }));
    expect(await within(form).findByText('Session timeout, please login again')).toBeVisible();
    await userEvent.click(within(form).getByRole('button', { name: 'Reserve' }));
    await vi.waitFor(() => expect(keys()).toHaveLength(2));
    expect(await within(form).findByText('Session timeout, please login again')).toBeVisible();

    // A reload: the brief comes back and, sent as it was, goes under the same key.
    cleanup();
    form = open();
    await vi.waitFor(() => expect(within(form).getByLabelText('Give details')).toHaveValue('Two landlords.'));
    await userEvent.selectOptions(within(form).getByLabelText('Quantity'), '2');
    await userEvent.click(within(form).getByRole('button', { name: 'Reserve' }));
    expect(await within(form).findByRole('status')).toHaveTextContent('Added to cart');
    const [first, ...again] = keys();
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    expect(again).toEqual([first, first]);
    expect(localStorage.getItem(`draft:c1:add:${ID}`)).toBeNull();

    // Added, the same product added again is a new addition.
    cleanup();
    form = open();
    await userEvent.selectOptions(within(form).getByLabelText('Quantity'), '2');
    await userEvent.type(within(form).getByLabelText('Give details'), 'Two landlords.');
    await userEvent.click(within(form).getByRole('button', { name: 'Reserve' }));
    expect(await within(form).findByRole('status')).toHaveTextContent('Added to cart');
    expect(keys()).toHaveLength(4);
    expect(keys()[3]).not.toBe(first);
  });

  it('takes a new key when what is added changes', async () => {
    setSession({ userToken: 't', userType: 'company', userId: 'c1' });
    const api = jsonFetch({
      'POST /api/cart': () => ({
        status: 409,
        body: { message: 'Tenancy agreement is already in your cart 9 times.' },
      }),
      'GET /api/cart': () => ({ body: [] }),
    });
    vi.stubGlobal('fetch', api.fn);
    const form = open();
    await userEvent.selectOptions(within(form).getByLabelText('Quantity'), '3');
    await userEvent.click(within(form).getByRole('button', { name: 'Reserve' }));
    expect(await within(form).findByText(/already in your cart/)).toBeVisible();
    await userEvent.selectOptions(within(form).getByLabelText('Quantity'), '1');
    await userEvent.click(within(form).getByRole('button', { name: 'Reserve' }));
    await vi.waitFor(() => expect(api.calls.filter((c) => c.method === 'POST')).toHaveLength(2));
    const [a, b] = api.calls
      .filter((c) => c.method === 'POST')
      .map((c) => (c.init?.headers as Record<string, string>)['idempotency-key']);
    expect(a).toMatch(/^[0-9a-f-]{36}$/);
    expect(b).toMatch(/^[0-9a-f-]{36}$/);
    expect(b).not.toBe(a);
  });
});

describe('the rating beside the product name', { timeout: 30_000 }, () => {
  it("counts a review the company has just written on the page (it is the product's answer)", async () => {
    setSession({ userToken: 't', userType: 'company', userId: 'c1' });
    let reviewed = false;
    const review = {
      _id: 'r1',
      date: '2026-11-20T10:00:00.000Z',
      reviewTitle: 'Great work',
      review: 'Quick and clear.',
      status: 4,
      companyId: { _id: 'c1', companyName: 'Ada Ventures Ltd' },
      productId: ID,
      verifiedPurchase: true,
    };
    vi.stubGlobal(
      'fetch',
      jsonFetch({
        'POST /api/rating': () => {
          reviewed = true;
          return { status: 201, body: { status: 'success', message: 'Review Submitted Successfully' } };
        },
        'GET /ratings-api/rating': () => ({ body: reviewed ? [review] : [] }),
        [`GET /product-api/product/${ID}`]: () => ({
          body: reviewed ? { ...PRODUCT, ratingAverage: 4, ratingCount: 1 } : PRODUCT,
        }),
      }).fn,
    );
    open();
    const rating = () => screen.getByRole('heading', { level: 1, name: 'Tenancy agreement' }).parentElement!;
    expect(rating()).toHaveTextContent('No reviews yet');
    const form = screen.getByRole('form', { name: 'Write a review' });
    await userEvent.type(within(form).getByLabelText('Title'), 'Great work');
    await userEvent.click(within(form).getByRole('radio', { name: '4 stars' }));
    await userEvent.type(within(form).getByLabelText('Your review'), 'Quick and clear.');
    await userEvent.click(within(form).getByRole('button', { name: 'Submit review' }));
    expect(await screen.findByText('Review Submitted Successfully')).toBeVisible();
    await vi.waitFor(() => expect(rating()).toHaveTextContent('4.0 out of 5 stars (1 review)'));
  });
});
