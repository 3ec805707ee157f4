import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { Product } from '@legalmarket/contracts/catalogue';
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
  area: 'Contracts and Commercial',
  whatYouGet: 'A written review',
  deliveryDays: 10,
  included: ['One agreement', 'A written review'],
  youProvide: ['The agreement'],
  notIncluded: [],
} as unknown as Product;

describe('the product form: area, what you get, delivery time and lists (decision 2010)', () => {
  it('shows what the product has and sends what the admin changes, an emptied field as empty', async () => {
    upload.mockReset();
    upload.mockResolvedValue({ status: 'success', message: 'Updated', data: { product } });
    const onSaved = vi.fn();
    render(
      <QueryClientProvider client={new QueryClient()}>
        <ProductForm product={product} onSaved={onSaved} />
      </QueryClientProvider>,
    );
    const user = userEvent.setup();
    expect(screen.getByLabelText('Area of law')).toHaveValue('Contracts and Commercial');
    expect(screen.getByLabelText("What's included")).toHaveValue('One agreement\nA written review');
    await user.selectOptions(screen.getByLabelText('Area of law'), 'Intellectual Property');
    const days = screen.getByLabelText('Delivery time (working days)');
    await user.clear(days);
    await user.type(days, '7d');
    expect(days).toHaveValue('7');
    await user.clear(screen.getByLabelText('What you get (one line)'));
    await user.click(screen.getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    const form = upload.mock.calls[0][1] as FormData;
    expect(form.get('area')).toBe('Intellectual Property');
    expect(form.get('deliveryDays')).toBe('7');
    expect(form.get('whatYouGet')).toBe('');
    expect(form.get('included')).toBe('One agreement\nA written review');
    expect(form.get('youProvide')).toBe('The agreement');
    expect(form.get('notIncluded')).toBe('');
  });

  it('refuses a delivery time outside 1 to 90 working days on the field', async () => {
    upload.mockReset();
    render(
      <QueryClientProvider client={new QueryClient()}>
        <ProductForm product={product} onSaved={vi.fn()} />
      </QueryClientProvider>,
    );
    const user = userEvent.setup();
    const days = screen.getByLabelText('Delivery time (working days)');
    await user.clear(days);
    await user.type(days, '95');
    await user.click(screen.getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('Delivery time must be between 1 and 90 working days')).toBeInTheDocument();
    expect(upload).not.toHaveBeenCalled();
  });
});
