import { matchPath, Navigate, useRoutes, type RouteObject } from 'react-router';
import type { UserType } from '@legalmarket/contracts';
import { RequireRole } from './guard';
import { page, type Loader, type Page } from './lazy-page';

/*
 * The route table of every page but the landing page, loaded with the first of them (app/router's
 * `*` route) and not with the entry: the landing page, the page most visitors see first, does not need
 * the other pages' table, their chunk names or the route guard to paint and to take its HTML over.
 */

/**
 * A page that reads server data: its chunk loads together with the query cache, so static pages
 * (landing, about) don't ship the query library on a phone's first visit.
 */
const withData = (load: Loader): Page =>
  page(async () => {
    const [{ DataProvider }, mod] = await Promise.all([import('./data-provider'), load()]);
    const Inner = mod.default;
    return {
      default: function DataPage() {
        return (
          <DataProvider>
            <Inner />
          </DataProvider>
        );
      },
    };
  });

// Each area is its own chunk: company, lawyer and admin pages load only when visited.
const p = {
  about: page(() => import('@/features/public/about-page')),
  remuneration: page(() => import('@/features/public/remuneration-order-page')),
  terms: page(() => import('@/features/legal/terms-page')),
  privacy: page(() => import('@/features/legal/privacy-page')),
  accountDeleted: page(() => import('@/features/privacy/account-deleted-page')),
  accountData: withData(() => import('@/features/privacy/my-data-page')),
  login: withData(() => import('@/features/accounts/login-page')),
  signupCompany: withData(() => import('@/features/accounts/signup-company-page')),
  signupLawyer: withData(() => import('@/features/accounts/signup-lawyer-page')),
  signupAdmin: withData(() => import('@/features/accounts/signup-admin-page')),
  passwordReset: withData(() => import('@/features/accounts/password-reset-page')),
  otp: withData(() => import('@/features/accounts/otp-page')),
  newPassword: withData(() => import('@/features/accounts/new-password-page')),
  resendConfirm: withData(() => import('@/features/accounts/resend-confirm-page')),
  confirmEmail: withData(() => import('@/features/accounts/confirm-email-page')),
  confirmEmailChange: withData(() => import('@/features/accounts/confirm-email-change-page')),
  undoEmailChange: withData(() => import('@/features/accounts/undo-email-change-page')),
  twoFactorNotMe: withData(() => import('@/features/accounts/two-factor-not-me-page')),
  payoutNotMe: withData(() => import('@/features/accounts/payout-not-me-page')),
  products: withData(() => import('@/features/catalogue/products-page')),
  preCart: withData(() => import('@/features/catalogue/pre-cart-page')),
  newProduct: withData(() => import('@/features/catalogue/new-product-page')),
  cart: withData(() => import('@/features/cart/cart-page')),
  companyDashboard: withData(() => import('@/features/company/dashboard-page')),
  companyProfile: withData(() => import('@/features/company/profile-page')),
  companyPlan: withData(() => import('@/features/plans/plan-page')),
  lawyerJobs: withData(() => import('@/features/lawyer/available-jobs-page')),
  lawyerJob: withData(() => import('@/features/lawyer/job-item-page')),
  lawyerDashboard: withData(() => import('@/features/lawyer/dashboard-page')),
  lawyerProfile: withData(() => import('@/features/lawyer/profile-page')),
  lawyerGetPaid: withData(() => import('@/features/lawyer/get-paid-page')),
  lawyerOtp: withData(() => import('@/features/lawyer/otp-page')),
  adminDashboard: withData(() => import('@/features/admin/dashboard-page')),
  adminRatings: withData(() => import('@/features/admin/ratings-page')),
  adminJobs: withData(() => import('@/features/admin/jobs-page')),
  adminLawyers: withData(() => import('@/features/admin/lawyers-page')),
  adminCompanies: withData(() => import('@/features/admin/companies-page')),
  adminAssign: withData(() => import('@/features/admin/assign-job-page')),
  adminPayment: withData(() => import('@/features/admin/payment-page')),
  adminRemunerationOrder: withData(() => import('@/features/admin/remuneration-order-page')),
  adminHolidays: withData(() => import('@/features/admin/holidays-page')),
  adminLedger: withData(() => import('@/features/admin/ledger-page')),
  adminReconciliation: withData(() => import('@/features/admin/reconciliation-page')),
  adminRefunds: withData(() => import('@/features/admin/refunds-page')),
  adminPayouts: withData(() => import('@/features/admin/payouts-page')),
  adminAudit: withData(() => import('@/features/admin/audit-page')),
  twoFactor: withData(() => import('@/features/accounts/two-factor-page')),
  adminSubscribers: withData(() => import('@/features/admin/subscribers-page')),
  job: withData(() => import('@/features/jobs/job-page')),
  notifications: page(() => import('@/features/notifications/notifications-page')),
} satisfies Record<string, Page>;

/** Route paths of the lazy pages, for preloadPage. */
const lazyPaths: Array<[path: string, page: Page]> = [];
const open = (path: string, Page: Page): RouteObject => {
  lazyPaths.push([path, Page]);
  return { path, element: <Page /> };
};
const guarded = (path: string, allowed: readonly UserType[], Page: Page): RouteObject => {
  lazyPaths.push([path, Page]);
  return {
    path,
    element: (
      <RequireRole allowed={allowed}>
        <Page />
      </RequireRole>
    ),
  };
};
const COMPANY = ['company'] as const;
const LAWYER = ['lawyer'] as const;
const ADMIN = ['admin'] as const;
const ANYONE_SIGNED_IN = ['company', 'lawyer', 'admin'] as const;

/** The route tables of both spec documents, but / and /home (app/router). */
export const pageRoutes: RouteObject[] = [
  open('/about-us', p.about),
  open('/products', p.products),
  open('/pre-cart/:productId', p.preCart),
  open('/cart', p.cart),
  open('/login', p.login),
  open('/signup/asacompany', p.signupCompany),
  open('/signup/asalawyer', p.signupLawyer),
  open('/signup/asanadmin', p.signupAdmin),
  // Other sign-up names seen in the original's links lead to the same screens.
  { path: '/company-signup', element: <Navigate to="/signup/asacompany" replace /> },
  { path: '/next-company-signup', element: <Navigate to="/signup/asacompany" replace /> },
  { path: '/lawyer-signup', element: <Navigate to="/signup/asalawyer" replace /> },
  { path: '/next-lawyer-signup', element: <Navigate to="/signup/asalawyer" replace /> },
  { path: '/admin-signup', element: <Navigate to="/signup/asanadmin" replace /> },
  open('/password-reset', p.passwordReset),
  open('/otp/:userEmail', p.otp),
  open('/new-password/:token/:userEmail', p.newPassword),
  open('/resend-confirm', p.resendConfirm),
  open('/confirm-email', p.confirmEmail),
  open('/confirm-email-change', p.confirmEmailChange),
  open('/undo-email-change', p.undoEmailChange),
  open('/two-factor-not-me', p.twoFactorNotMe),
  open('/payment-details-not-me', p.payoutNotMe),
  open('/legal-practitioners-remuneration-order', p.remuneration),
  open('/terms', p.terms),
  open('/privacy', p.privacy),
  open('/account-deleted', p.accountDeleted),
  guarded('/account/data', ANYONE_SIGNED_IN, p.accountData),
  guarded('/company/dashboard', COMPANY, p.companyDashboard),
  guarded('/company/profile/:companyId', COMPANY, p.companyProfile),
  guarded('/company/plan', COMPANY, p.companyPlan),
  guarded('/lawyer/dashboard', LAWYER, p.lawyerDashboard),
  guarded('/lawyer/get-paid', LAWYER, p.lawyerGetPaid),
  guarded('/lawyer/profile/:lawyerId', LAWYER, p.lawyerProfile),
  guarded('/lawyer/profile', LAWYER, p.lawyerProfile),
  guarded('/lawyer/otp', LAWYER, p.lawyerOtp),
  guarded('/lawyer/available-jobs/:lawyerId', LAWYER, p.lawyerJobs),
  guarded('/lawyer/available-job-item/:jobId', LAWYER, p.lawyerJob),
  guarded('/admin/dashboard', ADMIN, p.adminDashboard),
  guarded('/admin/ratings', ADMIN, p.adminRatings),
  guarded('/admin/jobs', ADMIN, p.adminJobs),
  guarded('/admin/lawyers', ADMIN, p.adminLawyers),
  guarded('/admin/companies', ADMIN, p.adminCompanies),
  guarded('/admin/new-product', ADMIN, p.newProduct),
  guarded('/admin/assign-job/:jobId', ADMIN, p.adminAssign),
  guarded('/admin/get-paid', ADMIN, p.adminPayment),
  guarded('/admin/payment', ADMIN, p.adminPayment),
  guarded('/admin/remuneration-order', ADMIN, p.adminRemunerationOrder),
  guarded('/admin/holidays', ADMIN, p.adminHolidays),
  guarded('/admin/ledger', ADMIN, p.adminLedger),
  guarded('/admin/reconciliation', ADMIN, p.adminReconciliation),
  guarded('/admin/refunds', ADMIN, p.adminRefunds),
  guarded('/admin/payouts', ADMIN, p.adminPayouts),
  guarded('/admin/audit', ADMIN, p.adminAudit),
  guarded('/account/two-factor', ANYONE_SIGNED_IN, p.twoFactor),
  guarded('/admin/subscribers', ADMIN, p.adminSubscribers),
  guarded('/jobs/:jobId', ANYONE_SIGNED_IN, p.job),
  guarded('/notifications', ANYONE_SIGNED_IN, p.notifications),
  { path: '*', element: <Navigate to="/" replace /> },
];

/** The pages under the root layout, at the path the `*` route of app/router left to them. */
export default function PageRoutes() {
  return useRoutes(pageRoutes);
}

/** Starts loading the lazy page of `pathname`; undefined when no lazy page has that path. */
export function preloadLazyPage(pathname: string): Promise<unknown> {
  const hit = lazyPaths.find(([path]) => matchPath(path, pathname));
  // A failure shows when the page renders (and loads again then).
  return hit ? hit[1].load().catch(() => undefined) : Promise.resolve();
}
