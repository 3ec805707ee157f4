import { describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { QueryClientProvider } from '@tanstack/react-query';
import { setSession } from '@/lib/session';
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
