import { describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import type { NotificationsResponse } from '@legalmarket/contracts/job-lifecycle';
import { setSession } from '@/lib/session';
import { notificationFixture } from '@/test/notification-fixture';
import { jsonFetch, renderPage } from '@/test/render';
import NotificationsPage from './notifications-page';

const entry = (id: number, text: string) => notificationFixture(id, text);

describe('/notifications Mark as read for a screen reader', () => {
  it('describes each Mark as read by the entry it marks', async () => {
    setSession({ userToken: 't', userType: 'company', userId: 'company-1' });
    const list: NotificationsResponse = {
      notifications: [entry(7, 'Tunde Bakare sent a message'), entry(5, 'Tunde Bakare delivered the work')],
      unread: 2,
      hasMore: false,
    };
    vi.stubGlobal('fetch', jsonFetch({ 'GET /api/notifications': () => ({ body: list }) }).fn);
    renderPage(<NotificationsPage />, { path: '/notifications', at: '/notifications' });
    await screen.findByText('Tunde Bakare sent a message');
    const buttons = screen.getAllByRole('button', { name: 'Mark as read' });
    expect(buttons).toHaveLength(2);
    expect(buttons[0]).toHaveAccessibleDescription(expect.stringContaining('Tunde Bakare sent a message'));
    expect(buttons[1]).toHaveAccessibleDescription(expect.stringContaining('Tunde Bakare delivered the work'));
  });
});
