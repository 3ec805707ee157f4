import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { NotificationsResponse } from '@legalmarket/contracts/job-lifecycle';
import { setSession } from '@/lib/session';
import { jsonFetch, renderPage } from '@/test/render';
import NotificationsPage from './notifications-page';

const entry = (id: number, text: string) => ({
  _id: String(id),
  jobId: 'job-1',
  action: 'message' as const,
  text,
  createdAt: '2026-11-20T10:00:00.000Z',
  readAt: null,
});

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
    expect(JSON.parse(String(sent?.init?.body))).toEqual({ all: true, upTo: '7' });
    // The server still counts the one that arrived since: the button stays for it.
    expect(await screen.findByText('1 unread')).toBeInTheDocument();
    expect(screen.queryAllByText('Unread:', { exact: false })).toHaveLength(0);
  });
});
