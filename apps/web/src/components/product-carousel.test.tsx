import { describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { productFixture } from '@/test/product-fixture';
import { MAX_DOTS, ProductCarousel } from './product-carousel';

const product = (i: number) =>
  productFixture({
    _id: `p${i}`,
    productName: `Product ${i}`,
    productPrice: 1000 + i,
    productDescription: '',
    productImage: `/uploads/p${i}.png`,
  });

function renderCarousel(count: number) {
  // A phone: no breakpoint matches, one product per slide.
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: false,
    media: query,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  }));
  const client = new QueryClient();
  client.setQueryData(['products'], {
    status: 'success',
    results: count,
    products: Array.from({ length: count }, (_, i) => product(i)),
  });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <ProductCarousel />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('ProductCarousel', () => {
  it('shows a window of slide dots, not one per slide, so a phone screen is not widened', async () => {
    renderCarousel(200);
    const dots = () => within(screen.getByRole('group', { name: 'Choose a slide' })).getAllByRole('button');
    expect(screen.getByRole('group', { name: '1 of 200' })).toBeInTheDocument();
    expect(dots()).toHaveLength(MAX_DOTS);
    expect(dots()[0]).toHaveAccessibleName('Slide 1');
    expect(dots()[0]).toHaveAttribute('aria-current', 'true');

    const next = screen.getByRole('button', { name: 'Next products' });
    for (let i = 0; i < 10; i++) await userEvent.click(next);
    expect(screen.getByRole('group', { name: '11 of 200' })).toBeInTheDocument();
    expect(dots()).toHaveLength(MAX_DOTS);
    expect(screen.getByRole('button', { name: 'Slide 11' })).toHaveAttribute('aria-current', 'true');
    expect(screen.queryByRole('button', { name: 'Slide 1' })).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Previous products' }));
    await userEvent.click(screen.getByRole('button', { name: 'Slide 8' }));
    expect(screen.getByRole('group', { name: '8 of 200' })).toBeInTheDocument();
  });

  it('shows every dot when there are few slides', () => {
    renderCarousel(4);
    const dots = within(screen.getByRole('group', { name: 'Choose a slide' })).getAllByRole('button');
    expect(dots.map((d) => d.getAttribute('aria-label'))).toEqual(['Slide 1', 'Slide 2', 'Slide 3', 'Slide 4']);
  });
});
