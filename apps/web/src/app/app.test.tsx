import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router';
import { getSession, setSession } from '@/lib/session';
import { App } from './app';

const TOKEN = 'k'.repeat(43);
const CHECKED = {
  status: 'success',
  data: { enabledAt: '2026-11-27T09:30:00.000Z', expiresAt: '2026-12-04T09:30:00.000Z' },
};

function Where() {
  return <p data-testid="where">{useLocation().pathname}</p>;
}

/**
 * A browser whose stored session the server ended: the thief's enrolment or a confirmed change of
 * address signs out every other device (decision 2181). Every signed-in request of the bar answers 401.
 */
function endedSession() {
  setSession({ userToken: 'revoked', userType: 'company', userId: 'c1' });
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    if (url.pathname === '/api/two-factor/not-me') return Response.json(CHECKED);
    const signedIn = new Headers(init?.headers).has('authorization');
    if (signedIn) return Response.json({ status: 'fail', message: 'Please log in again' }, { status: 401 });
    return Response.json({ status: 'fail', message: 'Not found' }, { status: 404 });
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

const open = (at: string) =>
  render(
    <MemoryRouter initialEntries={[at]}>
      <App />
      <Where />
    </MemoryRouter>,
  );

describe('a 401 on the page of an e-mailed link (decision 2225)', { timeout: 30_000 }, () => {
  it('"This wasn\'t me": the dead session is dropped and the page stays, with its button', async () => {
    const fetch = endedSession();
    open(`/two-factor-not-me?token=${TOKEN}`);
    expect(await screen.findByRole('button', { name: 'This wasn’t me: secure my account' })).toBeEnabled();
    // The bar asked with the dead session and heard 401.
    await vi.waitFor(() => expect(getSession()).toBeNull());
    expect(fetch.mock.calls.some(([, init]) => new Headers(init?.headers).has('authorization'))).toBe(true);
    await new Promise((r) => setTimeout(r, 100));
    expect(screen.getByTestId('where')).toHaveTextContent('/two-factor-not-me');
    expect(screen.getByRole('button', { name: 'This wasn’t me: secure my account' })).toBeEnabled();
  });

  it('the undo link of an e-mail change: the page stays, with its button', async () => {
    endedSession();
    open(`/undo-email-change?token=${TOKEN}`);
    expect(await screen.findByRole('button', { name: 'Undo the change' })).toBeEnabled();
    await vi.waitFor(() => expect(getSession()).toBeNull());
    await new Promise((r) => setTimeout(r, 100));
    expect(screen.getByTestId('where')).toHaveTextContent('/undo-email-change');
    expect(screen.getByRole('button', { name: 'Undo the change' })).toBeEnabled();
  });

  it('any other page still goes to the login form', async () => {
    endedSession();
    open('/about-us');
    await vi.waitFor(() => expect(getSession()).toBeNull());
    await vi.waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/login'));
  });
});
