import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { jsonFetch } from '@/test/render';
import { api, HttpError } from '@/lib/http';
import { StepUpPrompt } from './step-up-prompt';

// Counts the loads of the prompt's form (react-hook-form, zod, the two-factor schema): not with the page.
const loads = vi.hoisted(() => ({ dialog: 0 }));
vi.mock('./step-up-dialog', async (importOriginal) => {
  loads.dialog++;
  return importOriginal();
});

const stepUp = { status: 'fail', message: 'Enter the code from your authenticator app to continue' };

describe('the step-up prompt (decision 2020)', () => {
  it('loads its form on the first 428, asks for a code, and the action is sent again', async () => {
    const answers = [
      { status: 428, body: stepUp },
      { status: 200, body: { status: 'success', message: 'Paid out' } },
      { status: 428, body: stepUp },
    ];
    const server = jsonFetch({
      'POST /api/payouts': () => answers.shift()!,
      'POST /api/two-factor/verify': () => ({ body: { status: 'success', message: 'Confirmed' } }),
    });
    vi.stubGlobal('fetch', server.fn);
    const { container } = render(<StepUpPrompt />);
    expect(container).toBeEmptyDOMElement();
    expect(loads.dialog).toBe(0);

    const paying = api('/api/payouts', { method: 'POST', body: { amount: 1 } });
    const dialog = await screen.findByRole('dialog', { name: 'Confirm it is you' });
    expect(loads.dialog).toBe(1);
    expect(dialog).toHaveTextContent(`${stepUp.message}. Actions on money ask again after`);
    const code = screen.getByRole('textbox', { name: 'Authentication code' });
    expect(code).toHaveFocus();
    expect(code).toHaveAccessibleDescription('6 digits from your app, or a recovery code');

    await userEvent.type(code, '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await expect(paying).resolves.toEqual({ status: 'success', message: 'Paid out' });
    expect(screen.queryByRole('dialog')).toBeNull();
    const sent = server.calls.map((c) => `${c.method} ${c.url.pathname}`);
    expect(sent).toEqual(['POST /api/payouts', 'POST /api/two-factor/verify', 'POST /api/payouts']);
    expect(JSON.parse(String(server.calls[1].init?.body))).toEqual({ code: '123456' });

    // Asked again, the form opens empty; cancelled, the 428 is the caller's.
    const again = api('/api/payouts', { method: 'POST', body: { amount: 1 } }).catch((e: unknown) => e);
    expect(await screen.findByRole('textbox', { name: 'Authentication code' })).toHaveValue('');
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    const refused = await again;
    expect(refused).toBeInstanceOf(HttpError);
    expect((refused as HttpError).status).toBe(428);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(loads.dialog).toBe(1);
  });
});
