import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { Product } from '@legalmarket/contracts/catalogue';
import { messages } from '@legalmarket/contracts/messages';
import { ProductForm } from './product-form';

const upload = vi.hoisted(() => vi.fn());
vi.mock('@/lib/http', async (original) => ({
  ...(await original<typeof import('@/lib/http')>()),
  uploadWithProgress: upload,
}));

const product = {
  _id: 'p1',
  productName: 'Contract review',
  productPrice: 5000,
  productDescription: 'A lawyer reads your contract.',
  productImage: '/uploads/p1.png',
} as Product;

function renderForm(onSaved = vi.fn()) {
  upload.mockReset();
  render(
    <QueryClientProvider client={new QueryClient()}>
      <ProductForm product={product} onSaved={onSaved} />
    </QueryClientProvider>,
  );
  return { user: userEvent.setup(), onSaved };
}

describe('the product form', () => {
  it('shows a zero price on the Price field and sends nothing', async () => {
    const { user } = renderForm();
    const price = screen.getByLabelText('Price');
    await user.clear(price);
    await user.type(price, '0');
    await user.click(screen.getByRole('button', { name: 'Update' }));
    expect(await screen.findByText(messages.productPriceDigits)).toBeInTheDocument();
    expect(price).toHaveAttribute('aria-invalid', 'true');
    expect(price.getAttribute('aria-describedby')).toContain(screen.getByText(messages.productPriceDigits).id);
    expect(upload).not.toHaveBeenCalled();
  });

  it('refuses a price above the contract ceiling on the field, as the server would', async () => {
    const { user } = renderForm();
    const price = screen.getByLabelText('Price');
    await user.clear(price);
    await user.type(price, '999999999');
    await user.click(screen.getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('Product price must be at most 100000000')).toBeInTheDocument();
    expect(price).toHaveAttribute('aria-invalid', 'true');
    expect(upload).not.toHaveBeenCalled();
  });

  it('sends the edited product', async () => {
    const { user, onSaved } = renderForm();
    upload.mockResolvedValue({ status: 'success', message: messages.productUpdated, data: { product } });
    const name = screen.getByLabelText('Product Name');
    await user.clear(name);
    await user.type(name, 'Contract check');
    await user.click(screen.getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalledWith(product, messages.productUpdated));
    expect(upload.mock.calls[0][0]).toBe('/api/update/p1');
    const form = upload.mock.calls[0][1] as FormData;
    expect(form.get('productName')).toBe('Contract check');
    expect(form.get('productPrice')).toBe('5000');
  });

  it('refuses an image past 5 MB on picking, and keeps the product image (decision 2291)', async () => {
    const { user } = renderForm();
    upload.mockResolvedValue({ status: 'success', message: messages.productUpdated, data: { product } });
    const photo = new File(['\x89PNG'], 'contract-review-banner.png', { type: 'image/png' });
    Object.defineProperty(photo, 'size', { value: 5 * 1024 * 1024 + 1 });
    await user.upload(document.querySelector<HTMLInputElement>('input[type="file"]')!, photo);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'contract-review-banner.png: The file is too large: the limit is 5 MB',
    );
    expect(screen.queryByRole('button', { name: 'Remove contract-review-banner.png' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(upload).toHaveBeenCalled());
    expect((upload.mock.calls[0][1] as FormData).get('productImage')).toBeNull();
  });
});
