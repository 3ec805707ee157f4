import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { QueryClientProvider } from '@tanstack/react-query';
import { messages } from '@legalmarket/contracts/messages';
import { jobFixture } from '@/test/job-fixture';
import { testQueryClient } from '@/test/render';
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
