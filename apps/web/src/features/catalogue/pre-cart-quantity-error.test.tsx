import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { productFixture } from '@/test/product-fixture';
import { renderPage, testQueryClient } from '@/test/render';
import { readReservedItems } from '@/features/cart/reserved-items';
import PreCartPage from './pre-cart-page';

const ID = '33333333-3333-4333-8333-333333333333';
const PRODUCT = productFixture({
  _id: ID,
  productName: 'Tenancy agreement',
  productPrice: 15000,
  productDescription: 'A tenancy agreement drafted for you.',
  productImage: '/uploads/t.png',
});

describe('Reserve: a refused quantity', () => {
  it('describes the quantity select by its error, not only aria-invalid', async () => {
    const client = testQueryClient();
    client.setQueryData(['products', ID], PRODUCT);
    client.setQueryData(['products'], { status: 'success', results: 1, products: [PRODUCT] });
    client.setQueryData(['reviews', ID], []);
    renderPage(<PreCartPage />, { path: '/pre-cart/:productId', at: `/pre-cart/${ID}`, client });
    const form = screen.getByRole('form', { name: 'Reserve this product' });
    const quantity = within(form).getByLabelText('Quantity');
    expect(quantity).not.toHaveAttribute('aria-describedby');
    // A value outside the options, as a script or an old page may set it.
    const option = document.createElement('option');
    option.value = '11';
    option.textContent = '11';
    quantity.appendChild(option);
    await userEvent.selectOptions(quantity, '11');
    await userEvent.click(within(form).getByRole('button', { name: 'Reserve' }));
    await within(form).findByText('Quantity must be a number from 1 to 10');
    expect(quantity).toHaveAttribute('aria-invalid', 'true');
    expect(quantity).toHaveAccessibleDescription('Quantity must be a number from 1 to 10');
    expect(readReservedItems()).toEqual([]);
  });
});
