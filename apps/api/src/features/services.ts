// Builds every feature's service once, for app.ts to hand to the features' routes.
import type { FastifyBaseLogger } from 'fastify';
import { createPaymentProvider } from '../platform/payments/index.js';
import type { Services, Shared } from './shared.js';
import { createAdminService } from './admin/service.js';
import { createCartService } from './cart/service.js';
import { createCatalogueService } from './catalogue/service.js';
import { createCheckoutService } from './checkout/service.js';
import { createCompaniesService } from './companies/service.js';
import { createJobsAdminService } from './jobs/admin-service.js';
import { createCompanyJobsService } from './jobs/company-service.js';
import { createLawyerJobsService } from './jobs/lawyer-service.js';
import { createJobLifecycle } from './jobs/lifecycle-service.js';
import { createLawyersService } from './lawyers/service.js';
import { createLedger } from './money/ledger.js';
import { createReceipts } from './money/receipts.js';
import { createReconciliation } from './money/reconciliation.js';
import { createPayouts } from './money/payouts.js';
import { createRefunds } from './money/refunds.js';
import { createPlansService } from './plans/service.js';
import { createPlatformService } from './platform/service.js';
import { createPrivacyService } from './privacy/service.js';
import { createProfilesService } from './profiles/service.js';
import { createReviewsService } from './reviews/service.js';
import { createLawyerReviewsService } from './reviews/lawyer-service.js';
import { createShowcaseService } from './showcase/service.js';
import { createUploadsService } from './uploads/service.js';
import { createTwoFactorService } from './two-factor/service.js';

export function createServices(shared: Shared, log: FastifyBaseLogger): Services {
  const uploads = createUploadsService({ ...shared, logger: log });
  const paymentProvider = createPaymentProvider(shared.config, shared.db, shared.clock);
  const ledger = createLedger(shared);
  const refunds = createRefunds({ ...shared, provider: paymentProvider, ledger, log });
  const jobLifecycle = createJobLifecycle(shared, { ledger, refunds });
  const catalogue = createCatalogueService({ db: shared.db, clock: shared.clock, uploads });
  const twoFactor = createTwoFactorService(shared);
  return {
    uploads,
    paymentProvider,
    reconciliation: createReconciliation({ ...shared, provider: paymentProvider }),
    catalogue,
    showcase: createShowcaseService({ db: shared.db, catalogue }),
    cart: createCartService(shared),
    checkout: createCheckoutService({
      db: shared.db,
      clock: shared.clock,
      provider: paymentProvider,
      securityLog: shared.securityLog,
      log,
      lifecycle: jobLifecycle,
      ledger,
      refunds,
      mailConfig: shared.config,
    }),
    reviews: createReviewsService(shared),
    lawyerReviews: createLawyerReviewsService(shared),
    lawyers: createLawyersService({ ...shared, provider: paymentProvider }),
    payouts: createPayouts({ ...shared, provider: paymentProvider, ledger, log }),
    jobLifecycle,
    ledger,
    refunds,
    receipts: createReceipts(shared),
    lawyerJobs: createLawyerJobsService(shared, jobLifecycle, ledger),
    companyJobs: createCompanyJobsService(shared, jobLifecycle),
    jobsAdmin: createJobsAdminService(shared, jobLifecycle, ledger),
    companies: createCompaniesService(shared),
    profiles: createProfilesService({ ...shared, uploads, recentCode: twoFactor.checkRecentCode }),
    admin: createAdminService(shared),
    platform: createPlatformService(shared),
    twoFactor,
    privacy: createPrivacyService(shared),
    plans: createPlansService(shared, { provider: paymentProvider, ledger, lifecycle: jobLifecycle, refunds, log }),
  };
}
