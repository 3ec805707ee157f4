import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { QueryClientProvider } from '@tanstack/react-query';
import userEvent from '@testing-library/user-event';
import { messages } from '@legalmarket/contracts/messages';
import { getSession } from '@/lib/session';
import { jsonFetch, renderPage, testQueryClient } from '@/test/render';
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

  describe('after the session ran out on a page (decision 2240)', () => {
    const signInAs = async (user: { _id: string; userType: string }) => {
      vi.stubGlobal(
        'fetch',
        jsonFetch({
          'POST /api/login': () => ({
            body: { status: 'success', message: messages.welcomeBack, token: 'tok', data: { user } },
          }),
        }).fn,
      );
      // Where app/app.tsx sends a 401: /login, with the page and whose session it was.
      render(
        <QueryClientProvider client={testQueryClient()}>
          <MemoryRouter initialEntries={[{ pathname: '/login', state: { back: '/jobs/j1?from=bell', backFor: 'c1' } }]}>
            <Routes>
              <Route path="/login" element={<LoginPage />} />
              <Route path="/jobs/:jobId" element={<p>the job page</p>} />
              <Route path="*" element={<p>elsewhere</p>} />
            </Routes>
          </MemoryRouter>
        </QueryClientProvider>,
      );
      await userEvent.type(screen.getByLabelText('Email address'), 'ada@example.ng');
      await userEvent.type(screen.getByLabelText('Password'), 'correct horse battery');
      await userEvent.click(screen.getByRole('button', { name: 'Log in' }));
    };

    it('brings the same user back to the page and its draft', async () => {
      localStorage.setItem('draft:c1:job:j1:note', JSON.stringify('Our board meets on Friday.'));
      await signInAs({ _id: 'c1', userType: 'company' });
      expect(await screen.findByText('the job page', undefined, { timeout: 5000 })).toBeVisible();
      expect(localStorage.getItem('draft:c1:job:j1:note')).not.toBeNull();
    });

    it('sends another account where the spec says, not to the page it may not see', async () => {
      await signInAs({ _id: 'l1', userType: 'lawyer' });
      expect(await screen.findByText('elsewhere', undefined, { timeout: 5000 })).toBeVisible();
      expect(screen.queryByText('the job page')).toBeNull();
    });
  });
});
