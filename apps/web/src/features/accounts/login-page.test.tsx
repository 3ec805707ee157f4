import { describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { messages } from '@legalmarket/contracts/messages';
import { getSession } from '@/lib/session';
import { jsonFetch, renderPage } from '@/test/render';
import LoginPage from './login-page';

const keys = () => Array.from({ length: localStorage.length }, (_, i) => localStorage.key(i) ?? '').sort();

describe('/login', { timeout: 30_000 }, () => {
  it("drops the drafts another account left on this phone, and keeps the signing-in user's own (decision 2226)", async () => {
    // A company's session ran out (a 401 keeps its drafts for it); a lawyer now signs in on the phone.
    localStorage.setItem('draft:c1:job:j1:note', JSON.stringify('Our board meets on Friday.'));
    localStorage.setItem('draft:l1:bio', JSON.stringify({ yourBio: 'Called to the bar in 2012.' }));
    vi.stubGlobal(
      'fetch',
      jsonFetch({
        'POST /api/login': () => ({
          body: {
            status: 'success',
            message: messages.welcomeBack,
            token: 'tok',
            data: { user: { _id: 'l1', userType: 'lawyer' } },
          },
        }),
      }).fn,
    );
    renderPage(<LoginPage />, { path: '/login', at: '/login' });
    await userEvent.type(screen.getByLabelText('Email address'), 'tunde@example.ng');
    await userEvent.type(screen.getByLabelText('Password'), 'correct horse battery');
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }));
    await vi.waitFor(() => expect(getSession()?.userId).toBe('l1'));
    expect(keys().filter((k) => k.startsWith('draft:'))).toEqual(['draft:l1:bio']);
  });
});
