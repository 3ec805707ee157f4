import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { messages } from '@legalmarket/contracts/messages';
import { companyJobPage, companyOnJobPage, renderJobPage } from './job-page-test-kit';

const data = companyJobPage('delivered');

describe('/jobs/{id} composer errors for screen readers', { timeout: 30_000 }, () => {
  it('marks the note invalid with the reason tied to it, and clears both once typed in', async () => {
    companyOnJobPage(data);
    renderJobPage();
    const box = await screen.findByLabelText('Message or note');
    expect(box).not.toHaveAttribute('aria-invalid');
    await userEvent.click(screen.getByRole('button', { name: 'Request changes' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(messages.changesNoteMissing);
    expect(box).toHaveAttribute('aria-invalid', 'true');
    expect(box).toHaveAccessibleDescription(messages.changesNoteMissing);
    await userEvent.type(box, 'Clause 4');
    expect(box).not.toHaveAttribute('aria-invalid');
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
