import { act, StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { productFixture } from '@/test/product-fixture';
import { App } from '@/app/app';
import { preloadPage } from '@/app/router';
import { early, readSentData, sentWithHtml } from '@/early';
import { render } from './entry-server';

const PRODUCT = productFixture({
  _id: '7d3c2f0a-4b1e-4c2d-9e8f-0a1b2c3d4e5f',
  productName: 'Board resolution',
  productPrice: 5000,
  productDescription: 'Drafted and reviewed by a Nigerian lawyer, ready to sign.',
  productImage: '/uploads/board.png',
});
const PRODUCTS = { status: 'success' as const, results: 1, products: [PRODUCT] };
const SHOWCASE = { status: 'success' as const, verifiedLawyers: 1234, jobsCompleted: 56, products: [PRODUCT] };
// Hydration re-renders once the page's code runs (useHydrated); React wants that inside act().
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

describe('the first page rendered on the server', () => {
  it('renders the landing page with its heading', async () => {
    const html = await render('/');
    expect(html).toContain('Affordable legal help for your startup, at a fixed price.');
  });

  it('renders the landing page with the figures, featured products and hero picture from the data given', async () => {
    const html = await render('/', { url: '/api/showcase', body: SHOWCASE });
    expect(html).toContain('1,234');
    expect(html).toContain('Board resolution');
    // The hero picture is asked for first (the server preloads it, platform/first-page.ts).
    expect(html).toMatch(/<img src="[^"]+" alt="A contract with a signature[^"]*"[^>]*fetchPriority="high"/);
    // The product cards' pictures wait: they are below the first screen.
    expect(html).toMatch(/<img src="\/uploads\/board.png"[^>]*loading="lazy"/);
  });

  it('renders /products with the first cards and their pictures from the data given', async () => {
    const html = await render('/products', { url: '/product-api/products', body: PRODUCTS });
    expect(html).toContain('Shop our products');
    expect(html).toContain('Board resolution');
    expect(html).toMatch(/<img src="\/uploads\/board.png"[^>]*loading="eager"/);
  });

  it('renders /pre-cart/{id} with the product', async () => {
    const html = await render(`/pre-cart/${PRODUCT._id}`, {
      url: `/product-api/product/${PRODUCT._id}`,
      body: PRODUCT,
    });
    expect(html).toContain('Drafted and reviewed by a Nigerian lawyer, ready to sign.');
    // A quantity picked before the page's code runs would be reset by hydration: not offered yet.
    expect(html).toMatch(/<fieldset disabled=""/);
  });

  it('renders /cart as its shell: the heading and the cart loading, nobody’s cart', async () => {
    const html = await render('/cart');
    expect(html).toContain('Your Selections');
    expect(html).toContain('Loading your cart...');
    // Whose cart it is, and what a visitor reserved, live in the browser: the server cannot say it is empty.
    expect(html).not.toContain('Your cart is empty');
  });

  /**
   * Renders `path` as the server does, then hydrates it with the browser's tree; answers the root.
   * `html` changes the server's markup first (what the real server build writes differently).
   */
  async function hydrated(
    path: string,
    data?: { url: string; body: unknown },
    html?: (markup: string) => string,
    fromTag = false,
  ) {
    const markup = await render(path, data);
    window.history.pushState({}, '', path);
    const root = document.createElement('div');
    root.innerHTML = html ? html(markup) : markup;
    document.body.append(root);
    const heading = root.querySelector('h1');
    // (unless src/early.ts took it from the HTML's data tag already: `fromTag`, a signed-in page)
    if (data && !fromTag) {
      const arrived = { status: 200, ok: true, text: JSON.stringify(data.body) };
      early.set(data.url, { token: null, at: Date.now(), response: Promise.resolve(arrived), arrived });
    }
    await preloadPage(path);
    // The tree of src/main.tsx. A mismatch makes React throw the server's markup away and render again
    // (reported here); one in attributes (ids from useId) is logged, which fails the test.
    const recovered: unknown[] = [];
    await act(async () => {
      hydrateRoot(
        root,
        <StrictMode>
          <BrowserRouter>
            <App />
          </BrowserRouter>
        </StrictMode>,
        { onRecoverableError: (err) => recovered.push(err) },
      );
    });
    expect(recovered).toEqual([]);
    expect(root.querySelector('h1')).toBe(heading);
    return root;
  }

  it('is taken over by the app in the browser as it is (no mismatch, nothing painted again)', async () => {
    const root = await hydrated('/products', { url: '/product-api/products', body: PRODUCTS });
    expect(root.textContent).toContain('Board resolution');
    root.remove();
  });

  it('keeps the hero picture the server wrote into the HTML when it takes the landing page over', async () => {
    // The server build writes the picture inline (a data: URL); this test's render names the file.
    const inline = 'data:image/svg+xml,%3csvg%20xmlns=%27http://www.w3.org/2000/svg%27/%3e';
    const root = await hydrated('/', { url: '/api/showcase', body: SHOWCASE }, (markup) =>
      markup.replace(/<img src="[^"]+"( alt="A contract)/, `<img src="${inline}"$1`),
    );
    // Hydration found the markup it renders (console.error would have failed the test), and kept it.
    expect(root.querySelector('img[data-hero]')!.getAttribute('src')).toBe(inline);
    root.remove();
  });

  it('hydrates /cart’s shell, then shows the reservations this browser keeps', async () => {
    localStorage.setItem(
      'reservedItems',
      JSON.stringify([
        {
          productId: PRODUCT._id,
          productName: 'Board resolution',
          productPrice: 5000,
          productImage: '/uploads/board.png',
          quantity: 1,
        },
      ]),
    );
    const root = await hydrated('/cart');
    expect(root.querySelector('h1')!.textContent).toBe('Your Selections');
    expect(root.textContent).toContain('Board resolution');
    expect(root.textContent).not.toContain('Loading your cart...');
    root.remove();
  });

  /** A company's cart as GET /api/cart answers it, with a line only this company wrote. */
  const CART = [
    {
      products: [
        {
          productId: PRODUCT._id,
          quantity: 2,
          detail: 'Board resolution for the Series A, two directors',
          file: null,
          fileName: null,
          price: 5000,
          productName: 'Board resolution',
          productImage: '/uploads/board.png',
        },
      ],
      bill: 10000,
    },
  ];
  const signIn = (userId: string) => {
    localStorage.setItem('userToken', 'token-of-' + userId);
    localStorage.setItem('userType', 'company');
    localStorage.setItem('userId', userId);
  };
  /** The data tag the server ends a signed-in company's /cart with (platform/first-page.ts). */
  const sendCart = (owner: string) => {
    const tag = Object.assign(document.createElement('script'), {
      type: 'application/json',
      id: 'page-data',
      textContent: JSON.stringify(CART),
    });
    tag.dataset.url = '/api/cart';
    tag.dataset.user = owner;
    document.body.append(tag);
    readSentData();
    tag.remove();
  };

  it('renders /cart with the company’s cart the server read for its page cookie', async () => {
    const html = await render('/cart', { url: '/api/cart', body: CART });
    expect(html).toContain('Board resolution for the Series A, two directors');
    expect(html).toContain('Order summary');
    expect(html).not.toContain('Loading your cart...');
    // Its buttons wait for the page's code: a tap before it would be lost.
    const purchase = /<button[^>]*>(?:(?!<\/button>).)*Purchase<\/button>/.exec(html)?.[0];
    expect(purchase).toMatch(/ disabled=""/);
    // An empty cart (the server sends `[]` for the spec's 404) says so.
    expect(await render('/cart', { url: '/api/cart', body: [] })).toContain('Your cart is empty');
  });

  it('hydrates a company’s rendered /cart as it is, for the session the cart belongs to', async () => {
    signIn('company-1');
    sendCart('company-1');
    expect(sentWithHtml('/api/cart')).toBe(true);
    const root = await hydrated('/cart', { url: '/api/cart', body: CART }, undefined, true);
    expect(root.textContent).toContain('Board resolution for the Series A, two directors');
    expect(root.textContent).not.toContain('Loading your cart...');
    const buttons = [...root.querySelectorAll('button')];
    const purchase = buttons.find((b) => b.textContent?.includes('Purchase'))!;
    expect(purchase.disabled).toBe(false);
    // The shared Button is never natively disabled once hydrated: off, it is aria-disabled (decision 2354).
    expect(purchase).not.toHaveAttribute('aria-disabled');
    expect(buttons.find((b) => b.getAttribute('aria-label') === 'Remove Board resolution')!.disabled).toBe(false);
    root.remove();
    localStorage.clear();
  });

  it('leaves a rendered cart that names another account to the server’s next answer', async () => {
    // The cookie and the browser's storage disagree (another tab signed in as someone else).
    signIn('company-2');
    sendCart('company-1');
    expect(sentWithHtml('/api/cart')).toBe(false);
    expect(early.has('/api/cart')).toBe(false);
    localStorage.clear();
  });

  it('hydrates the landing page with the figures the server rendered', async () => {
    const root = await hydrated('/', { url: '/api/showcase', body: SHOWCASE });
    expect(root.querySelector('[data-testid="verified-lawyers"]')!.textContent).toBe('1,234');
    expect(root.textContent).toContain('Board resolution');
    root.remove();
  });

  it('hydrates /pre-cart/{id} with the ids the server gave (a dialog finds its title)', async () => {
    const root = await hydrated(`/pre-cart/${PRODUCT._id}`, {
      url: `/product-api/product/${PRODUCT._id}`,
      body: PRODUCT,
    });
    const quantity = root.querySelector('select')!;
    expect(root.querySelector(`label[for="${quantity.id}"]`)).not.toBeNull();
    expect(root.querySelector('fieldset')!.disabled).toBe(false);
    root.remove();
  });
});
