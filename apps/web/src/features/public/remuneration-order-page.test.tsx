import { describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setSession } from '@/lib/session';
import { renderPage } from '@/test/render';
import RemunerationOrderPage from './remuneration-order-page';

const answer = (status: number) => vi.fn(async () => new Response(null, { status }));
const show = () => renderPage(<RemunerationOrderPage />);

describe('/legal-practitioners-remuneration-order', { timeout: 30_000 }, () => {
  it('embeds the PDF once it is uploaded', async () => {
    vi.stubGlobal('fetch', answer(200));
    show();
    expect(await screen.findByLabelText('Legal Practitioners Remuneration Order 2023 (PDF)')).toHaveAttribute(
      'data',
      '/api/remuneration-order',
    );
  });

  it('says clearly that it is not uploaded yet, and offers an admin the upload screen', async () => {
    vi.stubGlobal('fetch', answer(404));
    setSession({ userToken: 't', userType: 'admin', userId: 'a1' });
    show();
    expect(await screen.findByText('The Remuneration Order has not been uploaded yet.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Upload the PDF now' })).toHaveAttribute(
      'href',
      '/admin/remuneration-order',
    );
  });

  it('does not call a failed check "not uploaded", and tries again on request', async () => {
    const fetch = vi
      .fn()
      .mockRejectedValueOnce(new TypeError('network down'))
      .mockResolvedValueOnce(new Response(null, { status: 200 }));
    vi.stubGlobal('fetch', fetch);
    show();
    expect(await screen.findByRole('alert')).toHaveTextContent('We could not load the Remuneration Order');
    expect(screen.queryByText(/not been uploaded/)).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByLabelText('Legal Practitioners Remuneration Order 2023 (PDF)')).toBeInTheDocument();
  });
});
