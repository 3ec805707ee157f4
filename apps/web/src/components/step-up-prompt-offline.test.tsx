import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { jsonFetch } from '@/test/render';
import { api, HttpError } from '@/lib/http';
import { StepUpPrompt } from './step-up-prompt';

// The prompt's form is fetched on the first 428: the first fetch fails here, as on a phone gone offline.
const loads = vi.hoisted(() => ({ tries: 0 }));
vi.mock('./step-up-dialog', async (importOriginal) => {
  if (++loads.tries === 1) throw new Error('Failed to fetch dynamically imported module');
  return importOriginal();
});

const stepUp = { status: 'fail', message: 'Enter the code from your authenticator app to continue' };

describe('the step-up prompt when its form cannot be fetched', () => {
  it('leaves the 428 to the caller, keeps the page, and asks on the next 428', async () => {
    const answers = [
      { status: 428, body: stepUp },
      { status: 428, body: stepUp },
      { status: 200, body: { status: 'success', message: 'Paid out' } },
    ];
    const server = jsonFetch({
      'POST /api/payouts': () => answers.shift()!,
      'POST /api/two-factor/verify': () => ({ body: { status: 'success', message: 'Confirmed' } }),
    });
    vi.stubGlobal('fetch', server.fn);
    render(
      <>
        <p>the page</p>
        <StepUpPrompt />
      </>,
    );

    const refused = await api('/api/payouts', { method: 'POST', body: {} }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(HttpError);
    expect((refused as HttpError).status).toBe(428);
    expect(screen.getByText('the page')).toBeInTheDocument();

    const paying = api('/api/payouts', { method: 'POST', body: {} });
    await userEvent.type(await screen.findByRole('textbox', { name: 'Authentication code' }), '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await expect(paying).resolves.toEqual({ status: 'success', message: 'Paid out' });
  });
});
