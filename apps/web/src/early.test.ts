import { describe, expect, it, vi } from 'vitest';
import { setSession } from '@/lib/session';
import { pageDataUrl, prefetch } from './early';

describe('data asked for before the app runs', () => {
  it("names each page's first data as its query asks for it", () => {
    expect(pageDataUrl('/products', null)).toBe('/product-api/products');
    expect(pageDataUrl('/products/', null)).toBe('/product-api/products');
    expect(pageDataUrl('/pre-cart/3f6c1d0e-1111-4222-8333-444455556666', null)).toBe(
      '/product-api/product/3f6c1d0e-1111-4222-8333-444455556666',
    );
    expect(pageDataUrl('/pre-cart/a%20b', null)).toBe('/product-api/product/a%20b');
    expect(pageDataUrl('/pre-cart/%E0%A4%A', null)).toBeNull();
    expect(pageDataUrl('/', null)).toBe('/api/showcase');
    expect(pageDataUrl('/home', null)).toBe('/api/showcase');
    for (const path of ['/about-us', '/pre-cart', '/pre-cart/a/b', '/productsx', '/company/dashboard'])
      expect(pageDataUrl(path, null), path).toBeNull();
  });

  it("asks for the cart only for a signed-in company (a visitor's cart is in this browser)", () => {
    expect(pageDataUrl('/cart', null)).toBeNull();
    expect(pageDataUrl('/cart', 'company')).toBeNull(); // no token stored
    setSession({ userToken: 'tok', userType: 'lawyer', userId: 'l1' });
    expect(pageDataUrl('/cart', 'lawyer')).toBeNull();
    setSession({ userToken: 'tok', userType: 'company', userId: 'c1' });
    expect(pageDataUrl('/cart', 'company')).toBe('/api/cart');
  });

  it('asks with the stored session and keeps the whole answer', async () => {
    setSession({ userToken: 'tok', userType: 'company', userId: 'c1' });
    const fetchMock = vi.fn().mockResolvedValue(new Response('{"a":1}', { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    expect(await prefetch('/api/cart')).toEqual({ status: 200, ok: true, text: '{"a":1}' });
    expect(fetchMock).toHaveBeenCalledWith('/api/cart', {
      headers: { accept: 'application/json', authorization: 'Bearer tok' },
    });
  });
});
