import { describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderPage } from '@/test/render';
import { OtherDevices } from './other-devices';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('"Sign out of all other devices" (decision 2245)', { timeout: 30_000 }, () => {
  it('asks first, sends nothing on cancel, then ends the others and says how many', async () => {
    const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost');
      if (url.pathname !== '/api/logout/others' || init?.method !== 'POST')
        throw new Error(`unexpected request: ${url.pathname}`);
      return json(200, { status: 'success', message: 'Every other device is signed out', data: { ended: 2 } });
    });
    vi.stubGlobal('fetch', fetch);
    const user = userEvent.setup();
    renderPage(<OtherDevices />, { path: '/account/two-factor', at: '/account/two-factor' });

    await user.click(screen.getByRole('button', { name: 'Sign out of all other devices' }));
    expect(await screen.findByRole('dialog', { name: 'Sign out of all other devices?' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(fetch).not.toHaveBeenCalled();

    await user.click(screen.getByRole('button', { name: 'Sign out of all other devices' }));
    await user.click(await screen.findByRole('button', { name: 'Sign out other devices' }));
    expect(await screen.findByText('Signed out of 2 other devices.')).toBeInTheDocument();
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('shows the refusal when the server says no', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json(429, { status: 'fail', message: 'Too many attempts. Please try again later.' })),
    );
    const user = userEvent.setup();
    renderPage(<OtherDevices />, { path: '/account/two-factor', at: '/account/two-factor' });
    await user.click(screen.getByRole('button', { name: 'Sign out of all other devices' }));
    await user.click(await screen.findByRole('button', { name: 'Sign out other devices' }));
    expect(await screen.findByText(/Too many attempts/)).toBeInTheDocument();
  });
});
