// What app.ts hands every feature's routes and services, and the services themselves (as types). It lives here, not in app.ts, so that features
// never import the composition root (which imports them); not in platform/, because it names a feature's
// service (accounts) and platform/ never imports features.
import type { Config } from '../config.js';
import type { Db } from '../db/client.js';
import type { ResponseCache } from '../platform/response-cache.js';
import type { Auth } from '../platform/auth.js';
import type { Clock } from '../platform/clock.js';
import type { PaymentProvider } from '../platform/payments/index.js';
import type { Limits } from '../platform/rate-limit.js';
import type { PageSessions } from '../platform/page-session.js';
import type { Storage } from '../platform/storage.js';
import type { AccountsService } from './accounts/service.js';
import type { AdminService } from './admin/service.js';
import type { CartService } from './cart/service.js';
import type { CatalogueService } from './catalogue/service.js';
import type { CheckoutService } from './checkout/service.js';
import type { CompaniesService } from './companies/service.js';
import type { JobsAdminService } from './jobs/admin-service.js';
import type { CompanyJobsService } from './jobs/company-service.js';
import type { LawyerJobsService } from './jobs/lawyer-service.js';
import type { JobLifecycle } from './jobs/lifecycle-service.js';
import type { LawyersService } from './lawyers/service.js';
import type { Ledger } from './money/ledger.js';
import type { Receipts } from './money/receipts.js';
import type { Reconciliation } from './money/reconciliation.js';
import type { Payouts } from './money/payouts.js';
import type { Refunds } from './money/refunds.js';
import type { PlansService } from './plans/service.js';
import type { PlatformService } from './platform/service.js';
import type { PrivacyService } from './privacy/service.js';
import type { ProfilesService } from './profiles/service.js';
import type { ReviewsService } from './reviews/service.js';
import type { LawyerReviewsService } from './reviews/lawyer-service.js';
import type { TwoFactorService } from './two-factor/service.js';
import type { ShowcaseService } from './showcase/service.js';
import type { UploadsService } from './uploads/service.js';

export interface Shared {
  config: Config;
  db: Db;
  clock: Clock;
  auth: Auth;
  limits: Limits;
  storage: Storage;
  hashToken: (token: string) => string;
  securityLog: (event: string, fields: Record<string, unknown>) => void;
  /** Call after a commit that wrote mail into the outbox. */
  mailWritten: () => void;
  accounts: AccountsService;
  /** The busiest signed-in reads, cached until the data changes (platform/response-cache.ts). */
  responses: ResponseCache;
  /** The cookie a company's /cart is rendered with (decision 2100). */
  pageSessions: PageSessions;
}

/** Every feature's service, each built once by createServices (features/services.ts). */
export interface Services {
  uploads: UploadsService;
  catalogue: CatalogueService;
  cart: CartService;
  checkout: CheckoutService;
  /** The payment provider the checkout service and the provider's webhook use. */
  paymentProvider: PaymentProvider;
  /** The ledger compared with the payment provider's records (admin). */
  reconciliation: Reconciliation;
  reviews: ReviewsService;
  /** Companies' reviews of the lawyers who completed their jobs, and the admin's track records. */
  lawyerReviews: LawyerReviewsService;
  lawyers: LawyersService;
  /** The job lifecycle: every job action goes through it. */
  jobLifecycle: JobLifecycle;
  /** The one ledger: every movement of money, balances derived from it. */
  ledger: Ledger;
  /** Refunds of cancelled jobs through the payment provider. */
  refunds: Refunds;
  /** Receipts of paid orders and credit notes of completed refunds (PDF), also as mail attachments. */
  receipts: Receipts;
  /** Lawyer withdrawals through the provider's transfers. */
  payouts: Payouts;
  lawyerJobs: LawyerJobsService;
  companyJobs: CompanyJobsService;
  jobsAdmin: JobsAdminService;
  companies: CompaniesService;
  profiles: ProfilesService;
  admin: AdminService;
  platform: PlatformService;
  /** Authenticator-app codes: sign-in's second step and the step-up of actions on money. */
  twoFactor: TwoFactorService;
  /** Data protection: the archive of one's data and the deletion of one's account (decision 2030). */
  privacy: PrivacyService;
  /** Monthly plans: subscriptions, renewals, credits and discounts (decision 1900). */
  plans: PlansService;
  showcase: ShowcaseService;
}

/** The one options shape every feature's routes plugin takes. */
export interface FeatureOptions {
  shared: Shared;
  services: Services;
}
