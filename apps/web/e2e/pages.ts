import type { APIRequestContext } from '@playwright/test';
import { apiLogin, createAccount, paidJob } from './helpers';

/**
 * Every page of the product for each role, shared by `npm run screenshots` (apps/web/screenshots) and
 * the accessibility journey (e2e/accessibility.spec.ts), so a new page is looked at and checked once.
 */
export type Role = 'visitor' | 'company' | 'lawyer' | 'admin';
export type World = Awaited<ReturnType<typeof world>>;

/** A paid job assigned to a verified lawyer, so every role's pages have something to show. */
export async function world(request: APIRequestContext) {
  const adminEmail = await createAccount(request, 'admin');
  const admin = await apiLogin(request, adminEmail);
  const paid = await paidJob(request, 'Please draft a shareholders agreement for our three founders');
  const jobs = (await (
    await request.get('/job-api/company/pendingjobs', { headers: paid.company.headers })
  ).json()) as Array<{ _id: string }>;
  const jobId = jobs[0]._id;
  const lawyerEmail = await createAccount(request, 'lawyer');
  const lawyer = await apiLogin(request, lawyerEmail);
  await request.patch(`/api/verifylawyer/${lawyer.id}`, { headers: admin.headers, data: { verified: true } });
  await request.post('/job-api/assign', { headers: admin.headers, data: { jobId, lawyerId: lawyer.id } });
  const catalogue = (await (await request.get('/product-api/products')).json()) as { products: Array<{ _id: string }> };
  return {
    adminEmail,
    companyEmail: paid.companyEmail,
    company: paid.company,
    lawyerEmail,
    lawyer,
    jobId,
    productId: catalogue.products[0]._id,
  };
}

/** The e-mail a role signs in with (null for the visitor). */
export const emailFor = (w: World, role: Role) =>
  role === 'visitor' ? null : role === 'company' ? w.companyEmail : role === 'lawyer' ? w.lawyerEmail : w.adminEmail;

/** [name, url] of each page a role sees, in the order a person would walk through them. */
export function pagesFor(w: World, role: Role): Array<[string, string]> {
  switch (role) {
    case 'visitor':
      return [
        ['landing', '/'],
        ['products', '/products'],
        ['product', `/pre-cart/${w.productId}`],
        ['about', '/about-us'],
        ['login', '/login'],
        ['signup-company', '/signup/asacompany'],
        ['signup-lawyer', '/signup/asalawyer'],
        ['password-reset', '/password-reset'],
        // The "This wasn't me" link of the two-factor-on e-mail (decision 2220), here with a token nobody was sent.
        ['two-factor-not-me', `/two-factor-not-me?token=${'x'.repeat(43)}`],
        // The same for the payout-details e-mail's link (decision 2244).
        ['payout-details-not-me', `/payment-details-not-me?token=${'x'.repeat(43)}`],
        ['remuneration-order', '/legal-practitioners-remuneration-order'],
      ];
    case 'company':
      return [
        ['dashboard', '/company/dashboard'],
        ['cart', '/cart'],
        ['job', `/jobs/${w.jobId}`],
        ['notifications', '/notifications'],
        ['profile', `/company/profile/${w.company.id}`],
      ];
    case 'lawyer':
      return [
        ['dashboard', '/lawyer/dashboard'],
        ['available-jobs', `/lawyer/available-jobs/${w.lawyer.id}`],
        ['job', `/jobs/${w.jobId}`],
        ['get-paid', '/lawyer/get-paid'],
        ['profile', `/lawyer/profile/${w.lawyer.id}`],
        ['notifications', '/notifications'],
      ];
    case 'admin':
      return [
        ['dashboard', '/admin/dashboard'],
        ['jobs', '/admin/jobs'],
        ['job', `/jobs/${w.jobId}`],
        ['lawyers', '/admin/lawyers'],
        ['companies', '/admin/companies'],
        ['ratings', '/admin/ratings'],
        ['new-product', '/admin/new-product'],
        ['payments', '/admin/payment'],
        ['ledger', '/admin/ledger'],
        ['payouts', '/admin/payouts'],
        ['refunds', '/admin/refunds'],
        ['reconciliation', '/admin/reconciliation'],
        ['holidays', '/admin/holidays'],
        ['remuneration-order', '/admin/remuneration-order'],
      ];
  }
}

export const ROLES: readonly Role[] = ['visitor', 'company', 'lawyer', 'admin'];

/** The two screens every page is looked at on: a 360×740 phone and a 1280×800 laptop. */
export const SCREENS = {
  phone: { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true },
  laptop: { viewport: { width: 1280, height: 800 }, isMobile: false, hasTouch: false },
} as const;
