import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderPage } from '@/test/render';
import CartPage from './cart-page';

vi.mock('@/components/product-carousel', () => ({ ProductCarousel: () => null }));

const reserved = [
  {
    productId: 'p1',
    productPrice: 1000,
    productName: 'Product p1',
    productImage: '/p1.png',
    quantity: 2,
    detail: 'Two directors, one shareholder',
  },
  { productId: 'p2', productPrice: 2000, productName: 'Product p2', productImage: '/p2.png', quantity: 1 },
];

describe("/cart: a visitor's Remove can be undone", { timeout: 30_000 }, () => {
  it('puts the reservation back where it was, brief and quantity included, with focus on its notice', async () => {
    localStorage.setItem('reservedItems', JSON.stringify(reserved));
    renderPage(<CartPage />);
    await userEvent.click(screen.getByRole('button', { name: 'Remove Product p1' }));
    expect(screen.getByRole('status')).toHaveTextContent('Product removed from the cart');
    const undo = screen.getByRole('button', { name: 'Undo: put Product p1 back in the cart' });
    // Focus is on the notice saying what happened, with Undo inside it as the next Tab stop.
    expect(document.activeElement).toContainElement(undo);
    expect(document.activeElement).toHaveTextContent('Product removed from the cart');
    await userEvent.click(undo);
    expect(screen.getByRole('status')).toHaveTextContent('Product p1 is back in your cart');
    const lines = within(screen.getByRole('list', { name: 'Items in your cart' })).getAllByRole('listitem');
    expect(lines.map((l) => within(l).getByRole('heading').textContent)).toEqual(['Product p1', 'Product p2']);
    const stored = JSON.parse(localStorage.getItem('reservedItems') ?? '[]') as Array<Record<string, unknown>>;
    expect(stored[0]).toMatchObject({ productId: 'p1', quantity: 2, detail: 'Two directors, one shareholder' });
    expect(screen.queryByRole('button', { name: /^Undo/ })).toBeNull();
  });
});
