import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { NotificationsResponse } from '@legalmarket/contracts/job-lifecycle';
import { setSession } from '@/lib/session';
import { notificationFixture } from '@/test/notification-fixture';
import { jsonFetch, renderPage } from '@/test/render';
import NotificationsPage from './notifications-page';

const entry = (id: number, text: string) => notificationFixture(id, text, '2026-11-20T11:00:00.000Z');

describe('/notifications Show older on a failed read', { timeout: 30_000 }, () => {
  it('says so beside Show older, below the list, and a second tap gets the page', async () => {
    setSession({ userToken: 't', userType: 'company', userId: 'company-1' });
    let olderFails = true;
    const first: NotificationsResponse = { notifications: [entry(9, 'Newest')], unread: 0, hasMore: true };
    const older: NotificationsResponse = { notifications: [entry(3, 'Oldest')], unread: 0, hasMore: false };
    vi.stubGlobal(
      'fetch',
      jsonFetch({
        'GET /api/notifications': (_init, url) => {
          if (!url.searchParams.get('before')) return { body: first };
          return olderFails
            ? { status: 503, body: { message: 'The service is busy. Please try again.' } }
            : { body: older };
        },
      }).fn,
    );
    renderPage(<NotificationsPage />, { path: '/notifications', at: '/notifications' });
    const showOlder = await screen.findByRole('button', { name: 'Show older' });
    await userEvent.click(showOlder);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Older notifications could not be loaded.');
    // After the list, where the tap was, not above it at the page's top.
    const list = screen.getByRole('list');
    expect(list.compareDocumentPosition(alert) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(within(list).getByText('Newest')).toBeInTheDocument();
    olderFails = false;
    await userEvent.click(screen.getByRole('button', { name: 'Show older' }));
    expect(await screen.findByText('Oldest')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('/notifications Mark as read on a failed send', { timeout: 30_000 }, () => {
  it('says so under the entry it was tapped on, not at the top of the page', async () => {
    setSession({ userToken: 't', userType: 'company', userId: 'company-1' });
    const unread = (id: number, text: string) => ({ ...entry(id, text), readAt: null });
    const list: NotificationsResponse = {
      notifications: [unread(9, 'Newest'), unread(8, 'Second'), unread(7, 'Third')],
      unread: 3,
      hasMore: false,
    };
    vi.stubGlobal(
      'fetch',
      jsonFetch({
        'GET /api/notifications': () => ({ body: list }),
        'POST /api/notifications/read': () => ({
          status: 503,
          body: { message: 'The service is busy. Please try again.' },
        }),
      }).fn,
    );
    renderPage(<NotificationsPage />, { path: '/notifications', at: '/notifications' });
    const third = (await screen.findByText('Third')).closest('li')!;
    await userEvent.click(within(third).getByRole('button', { name: 'Mark as read' }));
    expect(await within(third).findByRole('alert')).toHaveTextContent(
      'Not marked as read. The service is busy. Please try again.',
    );
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    // Still unread, its button still there to try again.
    expect(within(third).getByRole('button', { name: 'Mark as read' })).toBeEnabled();
  });
});
