import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { QueryClientProvider } from '@tanstack/react-query';
import { productFixture } from '@/test/product-fixture';
import { setSession } from '@/lib/session';
import { testQueryClient } from '@/test/render';
import ProductsPage from './products-page';

const product = (i: number) =>
  productFixture({
    _id: `p${i}`,
    productName: `Product ${i}`,
    productPrice: 1000 + i,
    productDescription: 'A product',
    productImage: `/uploads/p${i}.png`,
  });

describe('/products admin edit and focus', { timeout: 30_000 }, () => {
  it("goes to the form's heading on Edit, and back to that product's Edit on Cancel", async () => {
    setSession({ userToken: 't', userType: 'admin', userId: 'a1' });
    const client = testQueryClient();
    client.setQueryData(['products'], { status: 'success', results: 3, products: [0, 1, 2].map(product) });
    render(
      <QueryClientProvider client={client}>
        <MemoryRouter>
          <ProductsPage />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Edit Product 1' }));
    expect(screen.getByRole('heading', { name: 'Edit Product 1' })).toHaveFocus();
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    expect(screen.getByRole('button', { name: 'Edit Product 1' })).toHaveFocus();
  });
});
