import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { messages } from '@legalmarket/contracts/messages';
import { companyJobPage, companyOnJobPage, renderJobPage } from './job-page-test-kit';

const data = companyJobPage('delivered');

async function open() {
  companyOnJobPage(data);
  renderJobPage();
  return screen.findByLabelText('Message or note');
}

describe('/jobs/{id} character counter for screen readers', { timeout: 30_000 }, () => {
  it('describes the note box by its counter, and by the error alone while one is shown', async () => {
    const box = await open();
    expect(box).toHaveAccessibleDescription('0 / 5,000');
    await userEvent.type(box, 'Clause 4');
    expect(box).toHaveAccessibleDescription('8 / 5,000');
    await userEvent.clear(box);
    await userEvent.click(screen.getByRole('button', { name: 'Request changes' }));
    expect(box).toHaveAccessibleDescription(messages.changesNoteMissing);
    await userEvent.type(box, 'C');
    expect(box).toHaveAccessibleDescription('1 / 5,000');
  });

  it('announces politely when the note nears and passes the limit', async () => {
    const box = await open();
    const said = () => document.querySelector('[aria-live="polite"]')?.textContent;
    expect(said()).toBe('');
    await userEvent.click(box);
    await userEvent.paste('x'.repeat(4501));
    expect(said()).toBe('500 characters or fewer left.');
    await userEvent.paste('x'.repeat(400));
    expect(said()).toBe('100 characters or fewer left.');
    await userEvent.paste('x'.repeat(99));
    expect(said()).toBe('100 characters or fewer left.');
    await userEvent.paste('x');
    expect(said()).toBe('Over the limit of 5,000 characters.');
  });
});
