/** Typed path builders for every route of the spec's route tables. */
export const paths = {
  home: () => '/',
  homeAlias: () => '/home',
  about: () => '/about-us',
  /** `area`: one area of practice (a product's category), as the landing page's service cards link. */
  products: (area?: string) => (area ? `/products?${new URLSearchParams({ area })}` : '/products'),
  preCart: (productId: string) => `/pre-cart/${productId}`,
  cart: () => '/cart',
  login: () => '/login',
  signupCompany: () => '/signup/asacompany',
  signupLawyer: () => '/signup/asalawyer',
  signupAdmin: () => '/signup/asanadmin',
  passwordReset: () => '/password-reset',
  otp: (email: string) => `/otp/${encodeURIComponent(email)}`,
  newPassword: (token: string, email: string) =>
    `/new-password/${encodeURIComponent(token)}/${encodeURIComponent(email)}`,
  resendConfirm: () => '/resend-confirm',
  confirmEmail: () => '/confirm-email',
  confirmEmailChange: () => '/confirm-email-change',
  undoEmailChange: () => '/undo-email-change',
  /** The "This wasn't me" link of the two-factor-on e-mail (decision 2220). */
  twoFactorNotMe: () => '/two-factor-not-me',
  remunerationOrder: () => '/legal-practitioners-remuneration-order',
  terms: () => '/terms',
  privacy: () => '/privacy',
  /** Data protection: download one's data, delete one's account (every role). */
  accountData: () => '/account/data',
  accountDeleted: () => '/account-deleted',
  // company
  companyDashboard: () => '/company/dashboard',
  companyProfile: (companyId: string) => `/company/profile/${companyId}`,
  /** The company's monthly plan; `tier` preselects one to subscribe to (issue 19). */
  companyPlan: (tier?: string) => (tier ? `/company/plan?${new URLSearchParams({ tier })}` : '/company/plan'),
  // lawyer
  lawyerDashboard: () => '/lawyer/dashboard',
  lawyerGetPaid: () => '/lawyer/get-paid',
  lawyerProfile: (lawyerId: string) => `/lawyer/profile/${lawyerId}`,
  lawyerOtp: () => '/lawyer/otp',
  lawyerAvailableJobs: (lawyerId: string) => `/lawyer/available-jobs/${lawyerId}`,
  lawyerJob: (jobId: string, lawyerId?: string) =>
    `/lawyer/available-job-item/${jobId}${lawyerId ? `?lawyerId=${encodeURIComponent(lawyerId)}` : ''}`,
  // admin
  adminDashboard: () => '/admin/dashboard',
  adminRatings: () => '/admin/ratings',
  adminJobs: () => '/admin/jobs',
  adminLawyers: () => '/admin/lawyers',
  adminCompanies: () => '/admin/companies',
  adminNewProduct: () => '/admin/new-product',
  adminAssignJob: (jobId: string) => `/admin/assign-job/${jobId}`,
  adminGetPaid: () => '/admin/get-paid',
  adminPayment: () => '/admin/payment',
  adminRemunerationOrder: () => '/admin/remuneration-order',
  adminHolidays: () => '/admin/holidays',
  adminLedger: () => '/admin/ledger',
  adminReconciliation: () => '/admin/reconciliation',
  adminRefunds: () => '/admin/refunds',
  adminPayouts: () => '/admin/payouts',
  adminAudit: () => '/admin/audit',
  adminSubscribers: () => '/admin/subscribers',
  // every signed-in role
  job: (jobId: string) => `/jobs/${jobId}`,
  notifications: () => '/notifications',
  /** Two-factor authentication of the signed-in account (decision 2020). */
  twoFactor: () => '/account/two-factor',
} as const;
