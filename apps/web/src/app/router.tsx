import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { Navigate, createBrowserRouter, type RouteObject } from 'react-router';
import type { UserType } from '@legalmarket/contracts';
import { RequireRole } from './guard';
import { RootLayout } from './layout/root-layout';

type Page = LazyExoticComponent<ComponentType>;
// Each area is its own chunk: company, lawyer and admin pages load only when visited.
const p = {
  landing: lazy(() => import('@/features/public/landing-page')),
  about: lazy(() => import('@/features/public/about-page')),
  remuneration: lazy(() => import('@/features/public/remuneration-order-page')),
  login: lazy(() => import('@/features/accounts/login-page')),
  signupCompany: lazy(() => import('@/features/accounts/signup-company-page')),
  signupLawyer: lazy(() => import('@/features/accounts/signup-lawyer-page')),
  signupAdmin: lazy(() => import('@/features/accounts/signup-admin-page')),
  passwordReset: lazy(() => import('@/features/accounts/password-reset-page')),
  otp: lazy(() => import('@/features/accounts/otp-page')),
  newPassword: lazy(() => import('@/features/accounts/new-password-page')),
  resendConfirm: lazy(() => import('@/features/accounts/resend-confirm-page')),
  confirmEmail: lazy(() => import('@/features/accounts/confirm-email-page')),
  products: lazy(() => import('@/features/catalogue/products-page')),
  preCart: lazy(() => import('@/features/catalogue/pre-cart-page')),
  newProduct: lazy(() => import('@/features/catalogue/new-product-page')),
  cart: lazy(() => import('@/features/cart/cart-page')),
  companyDashboard: lazy(() => import('@/features/company/dashboard-page')),
  companyProfile: lazy(() => import('@/features/company/profile-page')),
  lawyerJobs: lazy(() => import('@/features/lawyer/available-jobs-page')),
  lawyerJob: lazy(() => import('@/features/lawyer/job-item-page')),
  lawyerDashboard: lazy(() => import('@/features/lawyer/dashboard-page')),
  lawyerProfile: lazy(() => import('@/features/lawyer/profile-page')),
  lawyerGetPaid: lazy(() => import('@/features/lawyer/get-paid-page')),
  lawyerOtp: lazy(() => import('@/features/lawyer/otp-page')),
  adminDashboard: lazy(() => import('@/features/admin/dashboard-page')),
  adminRatings: lazy(() => import('@/features/admin/ratings-page')),
  adminJobs: lazy(() => import('@/features/admin/jobs-page')),
  adminLawyers: lazy(() => import('@/features/admin/lawyers-page')),
  adminCompanies: lazy(() => import('@/features/admin/companies-page')),
  adminAssign: lazy(() => import('@/features/admin/assign-job-page')),
  adminPayment: lazy(() => import('@/features/admin/payment-page')),
} satisfies Record<string, Page>;

const open = (path: string, Page: Page): RouteObject => ({ path, element: <Page /> });
const guarded = (path: string, allowed: readonly UserType[], Page: Page): RouteObject => ({
  path,
  element: (
    <RequireRole allowed={allowed}>
      <Page />
    </RequireRole>
  ),
});
const COMPANY = ['company'] as const;
const LAWYER = ['lawyer'] as const;
const ADMIN = ['admin'] as const;

/** The route tables of both spec documents. */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      open('/', p.landing),
      open('/home', p.landing),
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
      open('/legal-practitioners-remuneration-order', p.remuneration),
      guarded('/company/dashboard', COMPANY, p.companyDashboard),
      guarded('/company/profile/:companyId', COMPANY, p.companyProfile),
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
      { path: '*', element: <Navigate to="/" replace /> },
    ],
  },
];

export const createRouter = () => createBrowserRouter(routes);
