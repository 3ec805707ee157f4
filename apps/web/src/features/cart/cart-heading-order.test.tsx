import { describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import type { CartLine } from '@legalmarket/contracts/commerce';
import { setSession } from '@/lib/session';
import { headingSkips } from '@/test/heading-order';
import { renderPage, testQueryClient } from '@/test/render';
import CartPage from './cart-page';

vi.mock('@/components/product-carousel', () => ({ ProductCarousel: () => null }));

const line = (id: string): CartLine => ({
  productId: id,
  quantity: 1,
  detail: null,
  file: null,
  fileName: null,
  price: 1000,
  productName: `Product ${id}`,
  productImage: `/uploads/${id}.png`,
});

describe('/cart headings for a screen reader', () => {
  it("skips no level between the page's title and the products, for a company", () => {
    setSession({ userToken: 't', userType: 'company', userId: 'c1' });
    const client = testQueryClient();
    client.setQueryData(['cart'], { products: [line('p1'), line('p2')], bill: 2000 });
    renderPage(<CartPage />, { client });
    expect(screen.getByRole('heading', { name: 'Product p1' })).toBeInTheDocument();
    expect(headingSkips()).toEqual([]);
  });

  it("and for a visitor's reservations", () => {
    localStorage.setItem(
      'reservedItems',
      JSON.stringify([
        { productId: 'p1', productPrice: 1000, productName: 'Product p1', productImage: '/p1.png', quantity: 1 },
      ]),
    );
    renderPage(<CartPage />);
    expect(screen.getByRole('heading', { name: 'Product p1' })).toBeInTheDocument();
    expect(headingSkips()).toEqual([]);
  });
});
