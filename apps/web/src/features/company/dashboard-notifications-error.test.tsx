import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setSession } from '@/lib/session';
import { jobFixture } from '@/test/job-fixture';
import { jsonFetch, renderPage } from '@/test/render';
import CompanyDashboardPage from './dashboard-page';

describe('/company/dashboard Notifications card on a failed read', { timeout: 30_000 }, () => {
  it('says the read failed and offers Try again, not "No notifications"', async () => {
    setSession({ userToken: 't', userType: 'company', userId: 'c1' });
    let fail = true;
    const { fn } = jsonFetch({
      'GET /job-api/company/pendingjobs': () =>
        fail
          ? { status: 503, body: { message: 'The service is busy. Please try again.' } }
          : {
              body: [
                jobFixture({
                  _id: '22222222-2222-4222-8222-222222222222',
                  status: 'pending',
                  lawyerRequestedDetail: 'Send the CAC forms, please.',
                }),
              ],
            },
      'GET /job-api/company/completedjobs': () => ({ body: [] }),
      'GET /api/orders': () => ({ body: { data: [] } }),
      'GET /api/refunds': () => ({ body: { refunds: [] } }),
      'GET /api/public-config': () => ({
        body: { supportPhone: '234', supportEmail: 'a@b.c', paymentProvider: 'sandbox' },
      }),
    });
    vi.stubGlobal('fetch', fn);
    renderPage(<CompanyDashboardPage />);
    const card = screen.getByRole('complementary', { name: 'Notifications' });
    expect(await within(card).findByText(/Notifications could not be loaded/)).toBeVisible();
    expect(within(card).queryByText('No notifications')).toBeNull();
    fail = false;
    await userEvent.click(within(card).getByRole('button', { name: 'Try again' }));
    expect(await within(card).findByRole('button', { name: 'Give more details' })).toBeVisible();
  });
});
