import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { messages } from '@legalmarket/contracts/messages';
import type { UserProfileResponse } from '@legalmarket/contracts/admin';
import { setSession } from '@/lib/session';
import { verifiedLawyer } from '@/test/lawyer-profile';
import { jsonFetch } from '@/test/render';
import { xhrThroughFetch } from '@/test/xhr-through-fetch';
import LawyerProfilePage from '@/features/lawyer/profile-page';
import { DataProvider, queryClient } from '../data-provider';
import { Navbar } from './navbar';

const profile = (url: string): UserProfileResponse => ({
  ...verifiedLawyer,
  userType: 'lawyer',
  profileImage: { url },
});

afterEach(() => queryClient.clear());

describe('the navbar picture', () => {
  it('shows a new profile picture as soon as it is saved, without a reload', async () => {
    let picture = '/uploads/old.png';
    const api = jsonFetch({
      'GET /api/userprofile': () => ({ body: profile(picture) }),
      'PATCH /api/updateprofile': () => {
        picture = '/uploads/new.png';
        return { body: { status: 'success', message: messages.profileUpdated } };
      },
    });
    vi.stubGlobal('fetch', api.fn);
    // The profile save goes up through XMLHttpRequest, for its progress: this sends it through the stub.
    xhrThroughFetch();
    // jsdom has no object URLs; the form previews the picked picture with one.
    vi.stubGlobal(
      'URL',
      class extends URL {
        static createObjectURL = () => 'blob:preview';
        static revokeObjectURL = () => undefined;
      },
    );
    setSession({ userToken: 't', userType: 'lawyer', userId: 'l1' });
    render(
      <DataProvider>
        <MemoryRouter initialEntries={['/lawyer/profile/l1']}>
          <Navbar />
          <Routes>
            <Route path="/lawyer/profile/:lawyerId" element={<LawyerProfilePage />} />
          </Routes>
        </MemoryRouter>
      </DataProvider>,
    );
    const bar = screen.getByRole('banner');
    const barPicture = () => within(bar).getAllByRole('link', { name: 'Your profile' })[0].querySelector('img');
    await waitFor(() => expect(barPicture()).toHaveAttribute('src', '/uploads/old.png'));

    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /Update your details/ }));
    const input = document.querySelector<HTMLInputElement>('input[type=file]')!;
    await user.upload(input, new File(['png'], 'me.png', { type: 'image/png' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(barPicture()).toHaveAttribute('src', '/uploads/new.png'));
    const patch = api.calls.find((c) => c.method === 'PATCH');
    expect((patch?.init?.body as FormData).get('profileImage')).toBeInstanceOf(File);
  });
});

describe('Log out on a slow network', () => {
  it('says it is logging out and asks the server once, however often it is tapped', async () => {
    const api = jsonFetch({
      'GET /api/userprofile': () => ({ body: profile('/uploads/me.png') }),
      'GET /api/notifications/unread': () => ({ body: { unread: 0 } }),
      'GET /api/public-config': () => ({
        body: { supportPhone: '234', supportEmail: 'a@b.c', paymentProvider: 'sandbox', socialLinks: [] },
      }),
    });
    const logouts: Array<() => void> = [];
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      if (String(input).endsWith('/api/logout'))
        return new Promise<Response>((resolve) => logouts.push(() => resolve(new Response('{}', { status: 200 }))));
      return api.fn(input, init);
    });
    setSession({ userToken: 't', userType: 'lawyer', userId: 'l1' });
    render(
      <DataProvider>
        <MemoryRouter initialEntries={['/lawyer/dashboard']}>
          <Navbar />
          <Routes>
            <Route path="/home" element={<p>home page</p>} />
            <Route path="*" element={<p>dashboard</p>} />
          </Routes>
        </MemoryRouter>
      </DataProvider>,
    );
    const user = userEvent.setup();
    const button = screen.getByRole('button', { name: 'Log out' });
    await user.dblClick(button);
    await user.click(button);
    expect(logouts).toHaveLength(1);
    expect(button).toBeDisabled();
    expect(button).toHaveAttribute('aria-busy', 'true');
    expect(button).toHaveTextContent('Logging out...');
    logouts[0]();
    expect(await screen.findByText('home page')).toBeVisible();
  });
});
