import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setSession } from '@/lib/session';
import { lawyerJob } from '@/test/job-fixture';
import { jsonFetch, renderPage } from '@/test/render';
import LawyerDashboardPage from './dashboard-page';

describe('/lawyer/dashboard Notifications card on a failed read', { timeout: 30_000 }, () => {
  it('says the read failed and offers Try again, not "No notifications yet."', async () => {
    setSession({ userToken: 't', userType: 'lawyer', userId: 'l1' });
    // The projects list reads 10 and gets them; the notifications' read of the latest 50 fails once.
    let failLatest = true;
    const withNews = { ...lawyerJob('pending', 1), companyDetail: 'The CAC forms are attached.' };
    const { fn } = jsonFetch({
      'GET /job-api/lawyer/pendingjobs': (_, url) =>
        url.searchParams.get('limit') === '10' || !failLatest
          ? { body: [withNews], headers: { 'x-total-count': '1' } }
          : { status: 503, body: { message: 'The service is busy. Please try again.' } },
    });
    vi.stubGlobal('fetch', fn);
    renderPage(<LawyerDashboardPage />);
    const card = screen.getByRole('complementary', { name: 'Notifications' });
    expect(await within(card).findByText(/Notifications could not be loaded/)).toBeVisible();
    expect(within(card).queryByText('No notifications yet.')).toBeNull();
    failLatest = false;
    await userEvent.click(within(card).getByRole('button', { name: 'Try again' }));
    expect(await within(card).findByRole('button', { name: 'View more details' })).toBeVisible();
  });
});
