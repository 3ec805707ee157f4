import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { Product } from '@legalmarket/contracts/catalogue';
import { productsListKey } from '@/components/product-carousel';
import ProductsPage from './products-page';
import { productsUrlOf } from './product-filters';

const product = (i: number, over: Partial<Product> = {}): Product => ({
  _id: `p${i}`,
  id: `p${i}`,
  productName: `Product ${i}`,
  productPrice: 10_000 * (i + 1),
  productDescription: 'A description',
  productImage: `/uploads/p${i}.png`,
  category: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  area: 'Contracts and Commercial',
  whatYouGet: 'A mutual NDA under Nigerian law',
  deliveryDays: 10,
  included: [],
  youProvide: [],
  notIncluded: [],
  ratingAverage: 4.5,
  ratingCount: 2,
  ...over,
});

/** Shows the address, as the browser's location bar would. */
function Address() {
  const l = useLocation();
  return <output aria-label="address">{l.pathname + l.search}</output>;
}

function renderAt(address: string, lists: Record<string, Product[]>) {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
  for (const [search, products] of Object.entries(lists))
    client.setQueryData(productsListKey(productsUrlOf(search)), {
      status: 'success',
      results: products.length,
      products,
    });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[address]}>
        <Routes>
          <Route
            path="/products"
            element={
              <>
                <ProductsPage />
                <Address />
              </>
            }
          />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const address = () => screen.getByRole('status', { name: 'address' }).textContent;

describe('/products search and filters', () => {
  it('shows the filters the address holds and the list the API answered for them', () => {
    renderAt('/products?q=nda&area=Contract%20Law&min=1000', { '?q=nda&area=Contract%20Law&min=1000': [product(1)] });
    const form = screen.getByRole('search', { name: 'Find a service' });
    expect(within(form).getByLabelText('Search services')).toHaveValue('nda');
    // The landing page's older name selects the area it names.
    expect(within(form).getByLabelText('Area of law')).toHaveValue('Contracts and Commercial');
    expect(within(form).getByLabelText('Min')).toHaveValue('1000');
    expect(within(form).getByLabelText('Max')).toHaveValue('');
    expect(screen.getByText('1 service found')).toBeInTheDocument();
    const card = screen.getByRole('list', { name: 'Products' });
    expect(within(card).getByText('A mutual NDA under Nigerian law')).toBeInTheDocument();
    expect(within(card).getByText('Delivered within 10 working days')).toBeInTheDocument();
    expect(within(card).getByText('4.5')).toBeInTheDocument();
    expect(within(card).getByText(/\(2 reviews\)/)).toBeInTheDocument();
  });

  it('puts what is typed into the address on Search, and an area at once', async () => {
    renderAt('/products', { '': [product(1), product(2)], '?q=trade+mark&max=50000': [product(2)] });
    expect(screen.queryByText(/services? found/)).toBeNull();
    const form = screen.getByRole('search', { name: 'Find a service' });
    await userEvent.type(within(form).getByLabelText('Search services'), 'trade mark');
    await userEvent.type(within(form).getByLabelText('Max'), '50,000');
    expect(within(form).getByLabelText('Max')).toHaveValue('50000');
    await userEvent.click(within(form).getByRole('button', { name: 'Search' }));
    expect(address()).toBe('/products?q=trade+mark&max=50000');
    expect(await screen.findByText('1 service found')).toBeInTheDocument();
    // The form is shown again for the new address.
    const again = screen.getByRole('search', { name: 'Find a service' });
    expect(within(again).getByLabelText('Search services')).toHaveValue('trade mark');
    await userEvent.selectOptions(within(again).getByLabelText('Area of law'), 'Intellectual Property');
    expect(address()).toBe('/products?q=trade+mark&area=Intellectual+Property&max=50000');
  });

  it('says so when nothing matches and offers to clear the filters', async () => {
    renderAt('/products?q=zzz', { '?q=zzz': [], '': [product(1)] });
    expect(screen.getByText('No services match your search.')).toBeInTheDocument();
    const clear = screen.getAllByRole('link', { name: 'Clear filters' });
    expect(clear[0]).toHaveAttribute('href', '/products');
    await userEvent.click(clear[clear.length - 1]);
    expect(address()).toBe('/products');
    expect(screen.getByRole('search', { name: 'Find a service' })).toBeInTheDocument();
    expect(within(screen.getByRole('search')).getByLabelText('Search services')).toHaveValue('');
    expect(screen.getByRole('list', { name: 'Products' })).toBeInTheDocument();
  });
});
