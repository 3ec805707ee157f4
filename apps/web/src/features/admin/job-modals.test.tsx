import { describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { QueryClientProvider } from '@tanstack/react-query';
import { messages } from '@legalmarket/contracts/messages';
import { jobFixture } from '@/test/job-fixture';
import { setSession } from '@/lib/session';
import { jsonFetch, testQueryClient } from '@/test/render';
import { AddDetailsModal } from './job-modals';

function open() {
  const job = jobFixture({ _id: '11111111-1111-4111-8111-111111111111', adminDetail: null, adminFile: null });
  render(
    <QueryClientProvider client={testQueryClient()}>
      <MemoryRouter>
        <AddDetailsModal job={job} onClose={() => undefined} onDone={() => undefined} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('Add details form (react-hook-form with the contract schema)', () => {
  it('refuses Send without text or document and says so once', async () => {
    open();
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText(messages.kindlyAddDetails)).toBeVisible();
  });

  it('still asks for the document when only blank text is typed', async () => {
    open();
    await userEvent.type(screen.getByLabelText('Give more details'), '   ');
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText(messages.kindlyAddDetails)).toBeVisible();
    // The schema's error on the text is tied to the field for screen readers.
    const text = screen.getByLabelText('Give more details');
    expect(text).toHaveAttribute('aria-invalid', 'true');
    expect(text).toHaveAccessibleDescription(messages.kindlyAddDetails);
  });
});

describe('Add details keeps what is typed (decision 2226)', () => {
  const ID = '11111111-1111-4111-8111-111111111111';
  const show = () => {
    const job = jobFixture({ _id: ID, adminDetail: null, adminFile: '/uploads/brief.pdf', adminFileName: 'brief.pdf' });
    render(
      <QueryClientProvider client={testQueryClient()}>
        <MemoryRouter>
          <AddDetailsModal job={job} onClose={() => undefined} onDone={() => undefined} />
        </MemoryRouter>
      </QueryClientProvider>,
    );
  };

  it('through a failed send and a reload; Cancel drops it', async () => {
    setSession({ userToken: 't', userType: 'admin', userId: 'a1' });
    vi.stubGlobal(
      'fetch',
      jsonFetch({
        [`PUT /job-api/editjobdetails/${ID}`]: () => ({ status: 500, body: { message: 'Internal Server Error' } }),
      }).fn,
    );
    const text = 'The company confirmed the lease runs from January; the rent review clause is in schedule 2.';
    show();
    await userEvent.type(screen.getByLabelText('Give more details'), text);
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Internal Server Error')).toBeVisible();
    expect(screen.getByLabelText('Give more details')).toHaveValue(text);

    cleanup();
    show();
    await vi.waitFor(() => expect(screen.getByLabelText('Give more details')).toHaveValue(text));
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(localStorage.getItem(`draft:a1:admin-details:${ID}`)).toBeNull();
    cleanup();
    show();
    expect(screen.getByLabelText('Give more details')).toHaveValue('');
  });
});
