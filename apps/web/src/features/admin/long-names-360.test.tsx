import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import { jsonFetch, renderPage, testQueryClient } from '@/test/render';
import AdminCompaniesPage from './companies-page';
import AdminLawyersPage from './lawyers-page';
import AdminPaymentPage from './payment-page';

const LONG_COMPANY = 'Oluwaseunfunmilayo Adebayo-Ogunleye Agricultural Commodities Import and Export Nigeria Ltd';
const LONG_EMAIL = 'procurement.and.legal.affairs@oluwaseunfunmilayo-agricultural-commodities.com.ng';
const LONG_LAWYER = 'Oluwaseunfunmilayo Adebayo-Ogunleye-Akintola-Oyelaran Esq.';

const listed = (key: string, items: unknown[]) => ({
  status: 'success',
  page: 1,
  limit: 5,
  total: items.length,
  results: items.length,
  [key]: items,
  data: { [key]: items },
});

/**
 * jsdom lays nothing out: a text inside a `truncate` box (overflow hidden, one line, ellipsis) is cut at
 * 360 px, one with `wrap-anywhere` wraps whole. Each text must be whole, wrapping and in no cut box.
 */
function expectWraps(el: HTMLElement) {
  expect(el.closest('.truncate')).toBeNull();
  expect(el.closest('.wrap-anywhere')).not.toBeNull();
}

afterEach(() => vi.unstubAllGlobals());

describe('admin lists at 360 px: long names and e-mails wrap, never cut', () => {
  it('/admin/companies', async () => {
    const company = {
      _id: 'c1',
      name: 'Ada',
      companyName: LONG_COMPANY,
      contactName: null,
      phoneNumber: '08030000000',
      officialEmail: LONG_EMAIL,
      officeAddress: null,
      cac: null,
      industry: null,
      website: null,
      yourBio: null,
      alternativeEmailAddress: null,
      profileImage: null,
      createdAt: '2026-11-01T10:00:00.000Z',
    };
    vi.stubGlobal('fetch', jsonFetch({ 'GET /api/companys': () => ({ body: listed('company', [company]) }) }).fn);
    renderPage(<AdminCompaniesPage />, { path: '/admin/companies', at: '/admin/companies' });
    const row = (await screen.findByRole('button', { name: `View more about ${LONG_COMPANY}` })).closest('li')!;
    expectWraps(within(row).getByText(LONG_COMPANY));
    expectWraps(within(row).getByText(LONG_EMAIL));
  });

  it('/admin/lawyers', async () => {
    const lawyer = {
      _id: 'l1',
      name: LONG_LAWYER,
      phoneNumber: '08030000000',
      officialEmail: LONG_EMAIL,
      lawFirmName: null,
      lawFirmAddress: null,
      scn: 'SCN001',
      cac: null,
      areasOfPractise: [],
      verified: true,
      verificationRejection: { reason: 'Blurred call-to-bar certificate', rejectedAt: '2026-11-02T10:00:00.000Z' },
      yearOfCall: null,
      yourBio: null,
      alternativeEmailAddress: null,
      profileImage: null,
      createdAt: '2026-11-01T10:00:00.000Z',
    };
    vi.stubGlobal('fetch', jsonFetch({ 'GET /api/verifiedlawyers': () => ({ body: listed('lawyers', [lawyer]) }) }).fn);
    renderPage(<AdminLawyersPage />, { path: '/admin/lawyers', at: '/admin/lawyers' });
    const row = (await screen.findByRole('button', { name: `View more about ${LONG_LAWYER}` })).closest('li')!;
    expectWraps(within(row).getByText(LONG_LAWYER));
    expectWraps(within(row).getByText(LONG_EMAIL));
  });

  it('/admin/payment', async () => {
    const none = { amount: 0, count: 0 };
    const payment = {
      _id: 'o1',
      reference: 'LM-1',
      provider: 'flutterwave',
      providerTransactionId: null,
      title: 'Contract review',
      amount: 53750.5,
      currency: 'NGN',
      status: 'paid',
      company: { _id: 'c1', companyName: LONG_COMPANY, officialEmail: LONG_EMAIL },
      createdAt: '2026-11-20T10:00:00.000Z',
      paidAt: '2026-11-20T10:00:00.000Z',
    };
    const body = {
      status: 'success',
      page: 1,
      limit: 5,
      total: 1,
      results: 1,
      data: { payments: [payment], totals: { paid: none, pending: none, failed: none, expired: none, replaced: none } },
    };
    vi.stubGlobal('fetch', jsonFetch({ 'GET /api/admin/payments': () => ({ body }) }).fn);
    const client = testQueryClient();
    client.setQueryData(['admin', 'settlement'], { status: 'success', message: 'OK', data: { account: null } });
    renderPage(<AdminPaymentPage />, { client, path: '/admin/payment', at: '/admin/payment' });
    expectWraps(await screen.findByText(LONG_COMPANY));
  });
});
