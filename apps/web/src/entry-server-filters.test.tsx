import { act, StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { Product } from '@legalmarket/contracts/catalogue';
import { App } from '@/app/app';
import { preloadPage } from '@/app/router';
import { early, pageDataUrl } from '@/early';
import { render } from './entry-server';

const PRODUCT: Product = {
  _id: '7d3c2f0a-4b1e-4c2d-9e8f-0a1b2c3d4e5f',
  id: '7d3c2f0a-4b1e-4c2d-9e8f-0a1b2c3d4e5f',
  productName: 'Charter party review',
  productPrice: 300_000,
  productDescription: 'A lawyer reviews your charter party.',
  productImage: '/uploads/ship.png',
  category: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  area: 'Maritime',
  whatYouGet: 'A written review of one charter party',
  deliveryDays: 5,
  included: [],
  youProvide: [],
  notIncluded: [],
  ratingAverage: 4,
  ratingCount: 1,
};
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

describe('a filtered /products rendered on the server (decision 2010)', () => {
  it('renders the filters and the filtered list, and hydrates without a mismatch', async () => {
    const search = '?q=charter&area=Maritime&min=1000';
    const url = pageDataUrl('/products', null, search)!;
    expect(url).toBe('/product-api/products?q=charter&area=Maritime&min=1000');
    const body = { status: 'success' as const, results: 1, products: [PRODUCT] };
    const html = await render('/products', { url, body }, search);
    expect(html).toContain('value="charter"');
    expect(html).toMatch(/<option value="Maritime" selected="">/);
    expect(html).toContain('1 service found');
    expect(html).toContain('Delivered within 5 working days');

    window.history.pushState({}, '', `/products${search}`);
    const root = document.createElement('div');
    root.innerHTML = html;
    document.body.append(root);
    const heading = root.querySelector('h1');
    const arrived = { status: 200, ok: true, text: JSON.stringify(body) };
    early.set(url, { token: null, at: Date.now(), response: Promise.resolve(arrived), arrived });
    await preloadPage('/products');
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
    expect(root.textContent).toContain('Charter party review');
    root.remove();
  });
});
