import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { productFixture } from '@/test/product-fixture';
import ProductsPage from './products-page';

const product = (i: number) =>
  productFixture({
    _id: `p${i}`,
    productName: `Product ${i}`,
    productPrice: 1000 + i,
    productDescription: '',
    productImage: `/uploads/p${i}.png`,
  });

function renderPage(count: number) {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity } } });
  client.setQueryData(['products'], {
    status: 'success',
    results: count,
    products: Array.from({ length: count }, (_, i) => product(i)),
  });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <ProductsPage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('/products', () => {
  it('shows the first cards at once and every card once the first picture is shown', async () => {
    renderPage(40);
    const list = screen.getByRole('list', { name: 'Products' });
    expect(within(list).getAllByRole('listitem').length).toBeLessThan(40);
    // The first pictures are fetched at once, the first one first.
    const first = list.querySelectorAll('img')[0];
    expect(first).toHaveAttribute('loading', 'eager');
    expect(first).toHaveAttribute('fetchpriority', 'high');
    expect(list.querySelectorAll('img')[1]).not.toHaveAttribute('fetchpriority');
    await new Promise((r) => setTimeout(r, 300));
    expect(within(list).getAllByRole('listitem').length).toBeLessThan(40);
    fireEvent.load(first);
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(40));
    expect(list.querySelectorAll('img')[39]).toHaveAttribute('loading', 'lazy');
  });

  it('shows every card after two seconds when the first picture does not load', async () => {
    renderPage(40);
    const list = screen.getByRole('list', { name: 'Products' });
    expect(within(list).getAllByRole('listitem').length).toBeLessThan(40);
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(40), { timeout: 3000 });
  });

  it('keeps the Single cards built while Packages is shown, and shows them again as they were', async () => {
    renderPage(40);
    fireEvent.load(screen.getByRole('list', { name: 'Products' }).querySelector('img')!);
    await waitFor(() => expect(screen.getAllByRole('link', { name: /Product \d+/ })).toHaveLength(40));
    const card = screen.getByRole('link', { name: /Product 7\b/ });

    await userEvent.click(screen.getByRole('tab', { name: 'Packages' }));
    expect(screen.getByRole('tabpanel', { name: 'Packages' })).toBeVisible();
    expect(screen.getByRole('list', { name: 'Packages' })).toBeVisible();
    expect(screen.queryByRole('list', { name: 'Products' })).toBeNull();
    expect(screen.queryByRole('tabpanel', { name: 'Single' })).toBeNull();

    await userEvent.click(screen.getByRole('tab', { name: 'Single' }));
    expect(screen.getByRole('tab', { name: 'Single' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.queryByRole('list', { name: 'Packages' })).toBeNull();
    // The same element: the 40 cards were not built again.
    expect(screen.getByRole('link', { name: /Product 7\b/ })).toBe(card);
  });
});
