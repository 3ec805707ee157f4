import { describe, expect, it, vi } from 'vitest';
import { setSession } from '@/lib/session';
import { startPageData } from './page-data';

function asked(pathname: string) {
  const fetchMock = vi.fn().mockImplementation(async () => new Response('{}'));
  vi.stubGlobal('fetch', fetchMock);
  startPageData(pathname);
  return fetchMock.mock.calls.map((c) => c[0] as string);
}

describe('data asked for while the page loads', () => {
  it('asks for what each page shows first, as its query will ask for it', () => {
    expect(asked('/products')).toEqual(['/product-api/products']);
    expect(asked('/pre-cart/3f6c1d0e-1111-4222-8333-444455556666')).toEqual([
      '/product-api/product/3f6c1d0e-1111-4222-8333-444455556666',
    ]);
    expect(asked('/pre-cart/a%20b')).toEqual(['/product-api/product/a%20b']);
    expect(asked('/pre-cart/%E0%A4%A')).toEqual([]);
    expect(asked('/')).toEqual([]);
    expect(asked('/about-us')).toEqual([]);
  });

  it("asks for the cart only for a signed-in company (a visitor's cart is in this browser)", () => {
    expect(asked('/cart')).toEqual([]);
    setSession({ userToken: 'tok', userType: 'lawyer', userId: 'l1' });
    expect(asked('/cart')).toEqual([]);
    setSession({ userToken: 'tok', userType: 'company', userId: 'c1' });
    expect(asked('/cart')).toEqual(['/api/cart']);
  });
});
