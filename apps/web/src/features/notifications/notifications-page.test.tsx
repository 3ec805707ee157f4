import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { NotificationsResponse } from '@legalmarket/contracts/job-lifecycle';
import { setSession } from '@/lib/session';
import { heldFetch } from '@/test/held-fetch';
import { notificationFixture } from '@/test/notification-fixture';
import { jsonFetch, renderPage } from '@/test/render';
import NotificationsPage from './notifications-page';

const entry = (id: number, text: string) => notificationFixture(id, text);

afterEach(() => vi.unstubAllGlobals());

describe('/notifications', () => {
  it('marks all read up to the newest entry it shows, so one arriving meanwhile stays unread', async () => {
    setSession({ userToken: 't', userType: 'company', userId: 'company-1' });
    const list: NotificationsResponse = {
      notifications: [entry(7, 'Tunde Bakare sent a message'), entry(5, 'Tunde Bakare delivered the work')],
      unread: 2,
      hasMore: false,
    };
    const stub = jsonFetch({
      'GET /api/notifications': () => ({ body: list }),
      'POST /api/notifications/read': () => ({ body: { unread: 1 } }),
    });
    vi.stubGlobal('fetch', stub.fn);
    renderPage(<NotificationsPage />, { path: '/notifications', at: '/notifications' });
    await userEvent.click(await screen.findByRole('button', { name: 'Mark all as read' }));
    await waitFor(() => expect(stub.calls.some((c) => c.method === 'POST')).toBe(true));
    const sent = stub.calls.find((c) => c.method === 'POST');
    // The unread entries it shows, by id, not everything up to the newest id: ids are not in commit
    // order, so an id bound could mark one never shown (decision 2279).
    expect(JSON.parse(String(sent?.init?.body))).toEqual({ ids: ['7', '5'] });
    // The server still counts the one that arrived since; the next load shows it.
    expect(await screen.findByText('1 unread')).toBeInTheDocument();
    expect(screen.queryAllByText('Unread:', { exact: false })).toHaveLength(0);
  });

  it('marks only the unread entries shown, and offers nothing while those shown are all read', async () => {
    setSession({ userToken: 't', userType: 'company', userId: 'company-1' });
    const older = { ...entry(3, 'Tunde Bakare accepted the job'), readAt: null };
    const pages: Record<string, NotificationsResponse> = {
      first: { notifications: [{ ...entry(9, 'Seen'), readAt: '2026-11-20T11:00:00.000Z' }], unread: 1, hasMore: true },
      older: { notifications: [older], unread: 1, hasMore: false },
    };
    const stub = jsonFetch({
      'GET /api/notifications': (_init, url) => ({ body: url.searchParams.get('before') ? pages.older : pages.first }),
      'POST /api/notifications/read': () => ({ body: { unread: 0 } }),
    });
    vi.stubGlobal('fetch', stub.fn);
    renderPage(<NotificationsPage />, { path: '/notifications', at: '/notifications' });
    // One unread, on a page not loaded yet: nothing shown to mark.
    const showOlder = await screen.findByRole('button', { name: 'Show older' });
    expect(screen.queryByRole('button', { name: 'Mark all as read' })).toBeNull();
    await userEvent.click(showOlder);
    await userEvent.click(await screen.findByRole('button', { name: 'Mark all as read' }));
    await waitFor(() => expect(stub.calls.some((c) => c.method === 'POST')).toBe(true));
    expect(JSON.parse(String(stub.calls.find((c) => c.method === 'POST')?.init?.body))).toEqual({ ids: ['3'] });
  });

  it('keeps focus on the entry, or on the heading, once its Mark as read button has gone', async () => {
    setSession({ userToken: 't', userType: 'company', userId: 'company-1' });
    const list: NotificationsResponse = {
      notifications: [entry(7, 'Tunde Bakare sent a message'), entry(5, 'Tunde Bakare delivered the work')],
      unread: 2,
      hasMore: false,
    };
    let unread = 2;
    const stub = jsonFetch({
      'GET /api/notifications': () => ({ body: list }),
      'POST /api/notifications/read': () => ({ body: { unread: --unread } }),
    });
    vi.stubGlobal('fetch', stub.fn);
    renderPage(<NotificationsPage />, { path: '/notifications', at: '/notifications' });
    await screen.findByText('Tunde Bakare sent a message');
    const buttons = screen.getAllByRole('button', { name: 'Mark as read' });
    await userEvent.click(buttons[0]);
    const entry7 = screen.getByRole('link', { name: /Tunde Bakare sent a message/ });
    await waitFor(() => expect(entry7).toHaveFocus());
    await userEvent.click(screen.getByRole('button', { name: 'Mark all as read' }));
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Notifications' })).toHaveFocus());
  });

  it('asks for the older page once however often "Show older" is tapped while it is on its way', async () => {
    setSession({ userToken: 't', userType: 'company', userId: 'company-1' });
    const pages: Record<string, NotificationsResponse> = {
      first: { notifications: [entry(9, 'Newest')], unread: 2, hasMore: true },
      older: { notifications: [entry(3, 'Tunde Bakare accepted the job')], unread: 2, hasMore: false },
    };
    const stub = heldFetch(
      {
        'GET /api/notifications': (_init, url) => ({
          body: url.searchParams.get('before') ? pages.older : pages.first,
        }),
      },
      ({ url }) => url.searchParams.has('before'),
    );
    vi.stubGlobal('fetch', stub.fn);
    renderPage(<NotificationsPage />, { path: '/notifications', at: '/notifications' });
    const showOlder = await screen.findByRole('button', { name: 'Show older' });
    await userEvent.click(showOlder);
    await userEvent.click(showOlder);
    await userEvent.click(showOlder);
    expect(showOlder).toBeDisabled();
    expect(stub.sent).toEqual(['/api/notifications']);
    stub.releaseAll();
    expect(await screen.findAllByText('Tunde Bakare accepted the job')).toHaveLength(1);
    expect(screen.queryByRole('button', { name: 'Show older' })).toBeNull();
  });

  it('leads a lawyer to their projects from a job passed to another lawyer, which no longer opens (2332)', async () => {
    setSession({ userToken: 't', userType: 'lawyer', userId: 'lawyer-1' });
    const list: NotificationsResponse = {
      notifications: [
        { ...entry(8, 'Share Transfer was passed to another lawyer'), action: 'assign', jobOpens: false },
        { ...entry(4, 'Kola Holdings sent a message on Deed of Gift'), jobId: 'job-2' },
      ],
      unread: 2,
      hasMore: false,
    };
    vi.stubGlobal('fetch', jsonFetch({ 'GET /api/notifications': () => ({ body: list }) }).fn);
    renderPage(<NotificationsPage />, { path: '/notifications', at: '/notifications' });
    const passed = await screen.findByRole('link', { name: /Share Transfer was passed to another lawyer/ });
    expect(passed).toHaveAttribute('href', '/lawyer/dashboard');
    expect(passed).toHaveTextContent('This job is no longer yours: the link opens your projects.');
    const kept = screen.getByRole('link', { name: /sent a message on Deed of Gift/ });
    expect(kept).toHaveAttribute('href', '/jobs/job-2');
    expect(kept).not.toHaveTextContent('no longer yours');
  });
});
