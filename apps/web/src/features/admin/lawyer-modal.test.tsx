import { describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { QueryClientProvider } from '@tanstack/react-query';
import { setSession } from '@/lib/session';
import { heldFetch } from '@/test/held-fetch';
import { jsonFetch, testQueryClient } from '@/test/render';
import { LawyerModal, type LawyerSummary } from './lawyer-modal';

const LAWYER: LawyerSummary = {
  _id: 'l7',
  name: 'Tunde Bakare',
  scn: 'SCN012345',
  verified: false,
  profileImage: null,
  createdAt: '2026-11-01T10:00:00.000Z',
};

const show = () =>
  render(
    <QueryClientProvider client={testQueryClient()}>
      <MemoryRouter>
        <LawyerModal lawyer={LAWYER} onClose={() => undefined} />
      </MemoryRouter>
    </QueryClientProvider>,
  );

describe("an admin's reason for refusing a verification (decision 2226)", () => {
  it('is kept through a failed send and a reload, and dropped once sent', async () => {
    setSession({ userToken: 't', userType: 'admin', userId: 'a1' });
    let posts = 0;
    vi.stubGlobal(
      'fetch',
      jsonFetch({
        'POST /api/rejectlawyer/l7': () =>
          ++posts === 1
            ? { status: 502, body: { message: 'Bad gateway' } }
            : { body: { status: 'success', message: 'Verification declined', data: { lawyer: LAWYER } } },
      }).fn,
    );
    const reason = 'Your SCN does not match the NBA roll; please send your call-to-bar certificate.';
    show();
    await userEvent.click(screen.getByRole('button', { name: 'Reject' }));
    await userEvent.type(screen.getByLabelText('Reason the lawyer will read'), reason);
    const send = screen.getByRole('button', { name: 'Reject and e-mail the reason' });
    await userEvent.click(send);
    expect(await screen.findByText('Bad gateway')).toBeVisible();
    expect(screen.getByLabelText('Reason the lawyer will read')).toHaveValue(reason);
    expect(send).toBeEnabled();

    cleanup();
    show();
    await userEvent.click(screen.getByRole('button', { name: 'Reject' }));
    expect(screen.getByLabelText('Reason the lawyer will read')).toHaveValue(reason);
    await userEvent.click(screen.getByRole('button', { name: 'Reject and e-mail the reason' }));
    expect(await within(screen.getByRole('dialog')).findByRole('status')).toHaveTextContent('Verification declined');
    expect(localStorage.getItem('draft:a1:reject-lawyer:l7')).toBeNull();
  });
});

describe('a rejection closed while on its way (decision 2281)', () => {
  const OTHER: LawyerSummary = { ...LAWYER, _id: 'l8', name: 'Ngozi Eze' };

  it('keeps Reject busy when opened again, is sent once, and says so only for its lawyer', async () => {
    setSession({ userToken: 't', userType: 'admin', userId: 'a1' });
    const { fn, sent, release } = heldFetch(
      {
        'POST /api/rejectlawyer/l7': () => ({
          body: { status: 'success', message: 'Verification declined', data: { lawyer: LAWYER } },
        }),
      },
      () => true,
    );
    vi.stubGlobal('fetch', fn);
    const client = testQueryClient();
    const ui = (lawyer: LawyerSummary | null) => (
      <QueryClientProvider client={client}>
        <MemoryRouter>
          <LawyerModal lawyer={lawyer} onClose={() => undefined} />
        </MemoryRouter>
      </QueryClientProvider>
    );
    const view = render(ui(LAWYER));
    const show = (lawyer: LawyerSummary | null) => view.rerender(ui(lawyer));

    await userEvent.click(screen.getByRole('button', { name: 'Reject' }));
    await userEvent.type(screen.getByLabelText('Reason the lawyer will read'), 'Your SCN does not match the roll.');
    await userEvent.click(screen.getByRole('button', { name: 'Reject and e-mail the reason' }));
    await vi.waitFor(() => expect(sent).toHaveLength(1));
    // Away: back to the lawyer's details, then the dialog closed.
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Close' }));
    show(null);

    show(LAWYER);
    const busy = screen.getByRole('button', { name: /Reject/ });
    expect(busy).toBeDisabled();
    await userEvent.click(busy);
    expect(sent).toEqual(['/api/rejectlawyer/l7']);
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Close' }));
    show(null);

    // Opened for another lawyer meanwhile: the answer says nothing there.
    show(OTHER);
    release();
    await vi.waitFor(() => expect(screen.getByRole('button', { name: /Reject/ })).toBeEnabled());
    expect(within(screen.getByRole('dialog')).queryByRole('status')).toBeNull();
    expect(localStorage.getItem('draft:a1:reject-lawyer:l7')).toBeNull();

    // Back on the lawyer it was sent for, the answer is shown.
    show(LAWYER);
    expect(within(screen.getByRole('dialog')).getByRole('status')).toHaveTextContent('Verification declined');
  });
});
