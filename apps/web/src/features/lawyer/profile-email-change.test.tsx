import { describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { messages } from '@legalmarket/contracts/messages';
import { getSession, setSession } from '@/lib/session';
import { xhrThroughFetch } from '@/test/xhr-through-fetch';
import ConfirmEmailChangePage from '@/features/accounts/confirm-email-change-page';
import UndoEmailChangePage from '@/features/accounts/undo-email-change-page';
import { lawyerKeys } from './api/keys';
import LawyerProfilePage from './profile-page';
import { verifiedLawyer as me } from '@/test/lawyer-profile';

/** PATCH /api/updateprofile answers `message`; the profile read that follows answers the profile itself. */
const server = (message: string) =>
  vi.fn(async (url: RequestInfo | URL, _init?: RequestInit) =>
    String(url).startsWith('/api/userprofile')
      ? new Response(JSON.stringify({ ...me, userType: 'lawyer' }), {
          status: 200,
          headers: { 'content-type': 'application/json' },
        })
      : ok(message),
  );

const ok = (message: string) =>
  new Response(JSON.stringify({ status: 'success', message }), {
    status: 200,
    headers: { 'content-type': 'application/json' },
  });

function renderAt(path: string, element: React.ReactNode, route = path.split('?')[0]) {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
  client.setQueryData(lawyerKeys.profile('l1', false), me);
  // The reviews section under the profile (decision 2000): none yet, read from the cache.
  client.setQueryData(['lawyer-reviews', 'l1'], { status: 'success', data: { average: null, count: 0, reviews: [] } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path={route} element={element} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

/** Signs a lawyer in, opens their profile against a server that saves it, and opens the edit form. */
async function openProfileEditor() {
  setSession({ userToken: 't', userType: 'lawyer', userId: 'l1' });
  const fetch = server(messages.profileUpdated);
  vi.stubGlobal('fetch', fetch);
  // The save goes up with its progress told, through XMLHttpRequest: this sends it through the stub.
  xhrThroughFetch();
  const user = userEvent.setup();
  renderAt('/lawyer/profile/l1', <LawyerProfilePage />, '/lawyer/profile/:lawyerId');
  await user.click(screen.getByRole('button', { name: /Update your details/ }));
  return { fetch, user };
}

describe('changing the sign-in e-mail from the lawyer profile', () => {
  it('asks for the current password only when the e-mail changes, then says to check the new inbox', async () => {
    const { fetch, user } = await openProfileEditor();
    expect(screen.queryByLabelText('Current password')).toBeNull();
    const email = screen.getByLabelText('Email Address');
    await user.clear(email);
    await user.type(email, 'new@example.ng');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(messages.currentPasswordRequired)).toBeInTheDocument();
    expect(fetch).not.toHaveBeenCalled();
    await user.click(screen.getAllByRole('button', { name: 'Close' }).at(-1)!);

    await user.type(screen.getByLabelText('Current password'), 'Str0ng!Pass');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(messages.checkNewInbox)).toBeInTheDocument();
    const body = fetch.mock.calls[0][1]!.body as FormData;
    expect(body.get('officialEmail')).toBe('new@example.ng');
    expect(body.get('currentPassword')).toBe('Str0ng!Pass');
  });

  it('sends no password when the e-mail is unchanged', async () => {
    const { fetch, user } = await openProfileEditor();
    await user.type(screen.getByLabelText('SCN'), '9');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(messages.profileUpdated)).toBeInTheDocument();
    expect(screen.queryByText(messages.checkNewInbox)).toBeNull();
    expect((fetch.mock.calls[0][1]!.body as FormData).get('currentPassword')).toBeNull();
  });
});

describe('the lawyer profile form', () => {
  it('shows a short phone number on the field and sends nothing', async () => {
    const { fetch, user } = await openProfileEditor();
    const phone = screen.getByLabelText('Phone Number');
    await user.clear(phone);
    await user.type(phone, '0808');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(messages.phoneRule)).toBeInTheDocument();
    expect(phone).toHaveAttribute('aria-invalid', 'true');
    expect(phone.getAttribute('aria-describedby')).toContain(screen.getByText(messages.phoneRule).id);
    expect(fetch).not.toHaveBeenCalled();
  });

  it('marks the current password field when it is missing', async () => {
    const { user } = await openProfileEditor();
    const email = screen.getByLabelText('Email Address');
    await user.clear(email);
    await user.type(email, 'new@example.ng');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(messages.currentPasswordRequired)).toBeInTheDocument();
    expect(screen.getByLabelText('Current password')).toHaveAttribute('aria-invalid', 'true');
  });
});

describe('the bio is kept while written (decision 2226)', () => {
  it('through a lost connection and a reload, and is dropped once saved', async () => {
    const bio = 'Called to the bar in 2012; I advise fintech startups on licensing and data protection.';
    let user = (await openProfileEditor()).user;
    let patches = 0;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: RequestInfo | URL) => {
        if (String(url).startsWith('/api/userprofile'))
          return new Response(JSON.stringify({ ...me, userType: 'lawyer' }), { status: 200 });
        if (++patches === 1) throw new TypeError('Failed to fetch');
        return ok(messages.profileUpdated);
      }),
    );
    await user.type(screen.getByLabelText('Your Bio'), bio);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Session timeout, please login again')).toBeInTheDocument();
    await user.click(screen.getAllByRole('button', { name: 'Close' }).at(-1)!);
    expect(screen.getByLabelText('Your Bio')).toHaveValue(bio);

    cleanup();
    user = (await openProfileEditor()).user;
    await waitFor(() => expect(screen.getByLabelText('Your Bio')).toHaveValue(bio));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(messages.profileUpdated)).toBeInTheDocument();
    expect(localStorage.getItem('draft:l1:bio')).toBeNull();
  });
});

describe('the e-mail change link pages', () => {
  it('/confirm-email-change sends nothing on opening: a mail scanner that runs the page changes nothing', async () => {
    const fetch = vi.fn(async (_url: RequestInfo | URL, _init?: RequestInit) => ok(messages.emailChangeConfirmed));
    vi.stubGlobal('fetch', fetch);
    renderAt('/confirm-email-change?token=abcdefghijkl', <ConfirmEmailChangePage />);
    expect(await screen.findByRole('button', { name: 'Confirm my new email' })).toBeEnabled();
    await new Promise((r) => setTimeout(r, 50));
    expect(fetch).not.toHaveBeenCalled();
  });

  it('/undo-email-change sends nothing on opening and keeps the session until the button is pressed', async () => {
    setSession({ userToken: 't', userType: 'lawyer', userId: 'l1' });
    const fetch = vi.fn(async () => ok(messages.emailChangeReverted));
    vi.stubGlobal('fetch', fetch);
    renderAt('/undo-email-change?token=abcdefghijkl', <UndoEmailChangePage />);
    expect(await screen.findByRole('button', { name: 'Undo the change' })).toBeEnabled();
    await new Promise((r) => setTimeout(r, 50));
    expect(fetch).not.toHaveBeenCalled();
    expect(getSession()).not.toBeNull();
  });

  it('a lost connection leaves the button to press again; the second press confirms', async () => {
    let calls = 0;
    const fetch = vi.fn(async (_url: RequestInfo | URL, _init?: RequestInit) => {
      if (++calls === 1) throw new TypeError('Failed to fetch');
      return ok(messages.emailChangeConfirmed);
    });
    vi.stubGlobal('fetch', fetch);
    renderAt('/confirm-email-change?token=abcdefghijkl', <ConfirmEmailChangePage />);
    const button = await screen.findByRole('button', { name: 'Confirm my new email' });
    await userEvent.click(button);
    expect(await screen.findByRole('alert')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Confirm my new email' }));
    expect(await screen.findByText(messages.emailChangeConfirmed)).toBeInTheDocument();
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('a limit or a failing server leaves the undo button to press again', async () => {
    let calls = 0;
    const fetch = vi.fn(async (_url: RequestInfo | URL, _init?: RequestInit) =>
      ++calls === 1
        ? new Response(
            JSON.stringify({ status: 'fail', message: 'Too many requests, please try again in a minute.' }),
            {
              status: 429,
              headers: { 'content-type': 'application/json' },
            },
          )
        : ok(messages.emailChangeReverted),
    );
    vi.stubGlobal('fetch', fetch);
    renderAt('/undo-email-change?token=abcdefghijkl', <UndoEmailChangePage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Undo the change' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many requests');
    await userEvent.click(screen.getByRole('button', { name: 'Undo the change' }));
    expect(await screen.findByText(messages.emailChangeReverted)).toBeInTheDocument();
  });

  it('/confirm-email-change posts the token once and says to log in with the new address', async () => {
    const fetch = vi.fn(async (_url: RequestInfo | URL, _init?: RequestInit) => ok(messages.emailChangeConfirmed));
    vi.stubGlobal('fetch', fetch);
    renderAt('/confirm-email-change?token=abcdefghijkl', <ConfirmEmailChangePage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Confirm my new email' }));
    expect(await screen.findByText(messages.emailChangeConfirmed)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login');
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(String(fetch.mock.calls[0][0])).toBe('/api/confirm-email-change');
    expect(JSON.parse(String(fetch.mock.calls[0][1]!.body))).toEqual({ token: 'abcdefghijkl' });
  });

  it('/undo-email-change ends the stored session and leads to a password reset', async () => {
    setSession({ userToken: 't', userType: 'lawyer', userId: 'l1' });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => ok(messages.emailChangeReverted)),
    );
    renderAt('/undo-email-change?token=abcdefghijkl', <UndoEmailChangePage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Undo the change' }));
    expect(await screen.findByText(messages.emailChangeReverted)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Reset your password' })).toHaveAttribute('href', '/password-reset');
    await waitFor(() => expect(getSession()).toBeNull());
  });
});

describe('the lawyer profile picture (decision 2291)', () => {
  it('is refused on picking when it is not a PNG, JPEG or WebP picture, and the save goes without it', async () => {
    const { fetch, user } = await openProfileEditor();
    const input = document.querySelector<HTMLInputElement>('input[type="file"]')!;
    // The picker's "All files" choice lets any file through its accept list.
    const picked = new File(['%PDF-1.4'], 'call-to-bar-certificate.pdf', { type: 'application/pdf' });
    await userEvent.setup({ applyAccept: false }).upload(input, picked);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      `call-to-bar-certificate.pdf: ${messages.imageTypeRefused}`,
    );
    expect(screen.queryByText('call-to-bar-certificate.pdf')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(fetch).toHaveBeenCalled());
    const sent = fetch.mock.calls.find(([url]) => String(url).startsWith('/api/updateprofile'));
    expect(sent).toBeDefined();
    expect((sent![1]!.body as FormData).get('profileImage')).toBeNull();
  });
});
