import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { twoFactorMessages } from '@legalmarket/contracts/two-factor';
import { getSession, setSession } from '@/lib/session';
import { renderPage } from '@/test/render';
import { resetFlow } from './reset-flow';
import TwoFactorNotMePage from './two-factor-not-me-page';

const TOKEN = 'k'.repeat(43);
const EMAIL = 'ada@example.ng';
const CHECKED = {
  status: 'success',
  data: { enabledAt: '2026-11-27T09:30:00.000Z', expiresAt: '2026-12-04T09:30:00.000Z' },
};
const DONE = { status: 'success', message: twoFactorMessages.notMeDone, data: { officialEmail: EMAIL } };

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const failure = (status: number, message: string) => json(status, { status: 'fail', message });

/** A promise the test settles when it wants the answer to arrive. */
function later() {
  let settle!: (r: Response) => void;
  const promise = new Promise<Response>((resolve) => (settle = resolve));
  return { promise, settle };
}

/** Answers GET and POST /api/two-factor/not-me with what the test hands in; records every call. */
function server(answers: { check: () => Promise<Response> | Response; confirm?: () => Promise<Response> | Response }) {
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    if (url.pathname !== '/api/two-factor/not-me') throw new Error(`unexpected request: ${url.pathname}`);
    if ((init?.method ?? 'GET') === 'GET') return answers.check();
    if (!answers.confirm) throw new Error('unexpected confirmation');
    return answers.confirm();
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
}
const methods = (fetch: ReturnType<typeof server>) => fetch.mock.calls.map(([, init]) => init?.method ?? 'GET');

const open = (at = `/two-factor-not-me?token=${TOKEN}`) =>
  renderPage(<TwoFactorNotMePage />, { path: '/two-factor-not-me', at });

describe('/two-factor-not-me ("This wasn\'t me", decision 2220)', { timeout: 30_000 }, () => {
  it('checks the link while showing that it does, explains, and changes nothing until confirmed', async () => {
    const check = later();
    const fetch = server({ check: () => check.promise });
    open();
    expect(screen.getByRole('status')).toHaveTextContent('Checking your link...');
    check.settle(json(200, CHECKED));
    expect(await screen.findByRole('heading', { name: 'Was this not you?' })).toBeInTheDocument();
    expect(screen.getByRole('list', { name: 'When you confirm, we will:' })).toHaveTextContent(
      /turn two-factor authentication off.*log out every device.*stop your current password.*email you a code/,
    );
    expect(screen.getByRole('form', { name: 'Turn off two-factor authentication' })).toBeInTheDocument();
    // Opening the link asked the server only whether it can be used: a GET, with the token.
    expect(methods(fetch)).toEqual(['GET']);
    expect(new URL(String(fetch.mock.calls[0][0]), 'http://localhost').searchParams.get('token')).toBe(TOKEN);
  });

  it('confirms from the keyboard, shows the wait, then the way to a new password', async () => {
    setSession({ userToken: 'thief-or-owner', userType: 'company', userId: 'c1' });
    const confirm = later();
    const fetch = server({ check: () => json(200, CHECKED), confirm: () => confirm.promise });
    open();
    const button = await screen.findByRole('button', { name: 'This wasn’t me: secure my account' });
    const user = userEvent.setup();
    await user.tab();
    expect(button).toHaveFocus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(button).toHaveAttribute('aria-busy', 'true'));
    expect(button).toBeDisabled();
    expect(methods(fetch)).toEqual(['GET', 'POST']);
    expect(JSON.parse(String(fetch.mock.calls[1][1]!.body))).toEqual({ token: TOKEN });
    confirm.settle(json(200, DONE));
    expect(await screen.findByRole('heading', { name: 'Your account is secured' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent(twoFactorMessages.notMeDone);
    expect(screen.getByText(EMAIL)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Enter the code' })).toHaveAttribute(
      'href',
      `/otp/${encodeURIComponent(EMAIL)}`,
    );
    // Every session ended on the server: this browser's is dropped, and the code page opens for the address.
    expect(getSession()).toBeNull();
    expect(resetFlow.canEnterCode(EMAIL)).toBe(true);
    expect(methods(fetch)).toEqual(['GET', 'POST']);
  });

  it('names what is wrong with a link that cannot be used, and offers no button', async () => {
    for (const [status, message] of [
      [409, twoFactorMessages.notMeLinkUsed],
      [410, twoFactorMessages.notMeLinkExpired],
      [404, twoFactorMessages.notMeLinkUnknown],
      [409, twoFactorMessages.notMeLinkStale],
    ] as const) {
      const fetch = server({ check: () => failure(status, message) });
      const view = open();
      expect(await screen.findByRole('heading', { name: 'This link cannot be used' })).toBeInTheDocument();
      expect(screen.getByRole('alert')).toHaveTextContent(message);
      expect(screen.queryByRole('button')).not.toBeInTheDocument();
      expect(screen.getByRole('link', { name: 'Reset your password' })).toHaveAttribute('href', '/password-reset');
      expect(methods(fetch)).toEqual(['GET']);
      view.unmount();
    }
  });

  it('shows a refused confirmation (used meanwhile) in place of the form', async () => {
    server({ check: () => json(200, CHECKED), confirm: () => failure(409, twoFactorMessages.notMeLinkUsed) });
    open();
    await userEvent.click(await screen.findByRole('button', { name: 'This wasn’t me: secure my account' }));
    expect(await screen.findByRole('heading', { name: 'This link cannot be used' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(twoFactorMessages.notMeLinkUsed);
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });

  it('keeps the button after a lost connection, so the owner can try again', async () => {
    let tries = 0;
    server({
      check: () => json(200, CHECKED),
      confirm: () => {
        tries += 1;
        if (tries === 1) throw new TypeError('Failed to fetch');
        return json(200, DONE);
      },
    });
    open();
    const button = await screen.findByRole('button', { name: 'This wasn’t me: secure my account' });
    await userEvent.click(button);
    expect(await screen.findByRole('alert')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'This wasn’t me: secure my account' }));
    expect(await screen.findByRole('heading', { name: 'Your account is secured' })).toBeInTheDocument();
  });

  it('a busy or failing server is not a dead link: the check and the confirmation can be tried again', async () => {
    let checks = 0;
    let confirms = 0;
    server({
      check: () =>
        ++checks === 1 ? failure(429, 'Too many requests, please try again in a minute.') : json(200, CHECKED),
      confirm: () => (++confirms === 1 ? failure(503, 'The service is busy. Please try again.') : json(200, DONE)),
    });
    open();
    expect(await screen.findByRole('heading', { name: 'We could not check your link' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'This link cannot be used' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    const button = await screen.findByRole('button', { name: 'This wasn’t me: secure my account' });
    await userEvent.click(button);
    expect(await screen.findByRole('alert')).toHaveTextContent('The service is busy. Please try again.');
    await userEvent.click(screen.getByRole('button', { name: 'This wasn’t me: secure my account' }));
    expect(await screen.findByRole('heading', { name: 'Your account is secured' })).toBeInTheDocument();
  });

  it('without a token says the link is incomplete and asks nothing of the server', async () => {
    const fetch = server({ check: () => json(200, CHECKED) });
    open('/two-factor-not-me');
    expect(screen.getByRole('alert')).toHaveTextContent(twoFactorMessages.notMeLinkIncomplete);
    expect(fetch).not.toHaveBeenCalled();
  });
});
