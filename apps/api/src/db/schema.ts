import { sql } from 'drizzle-orm';
import {
  JOB_STAGES,
  LEDGER_ACCOUNTS,
  LEDGER_KINDS,
  ORDER_STATUSES,
  PAYOUT_STATUSES,
  PLAN_CREDIT_KINDS,
  PLAN_EVENT_KINDS,
  PLAN_STATUSES,
  PLAN_TIERS,
  type PlanCredits,
  REFUND_STATUSES,
} from '@legalmarket/contracts';
import {
  bigint,
  bigserial,
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const createdAt = () => ts('created_at').notNull().defaultNow();
const updatedAt = () => ts('updated_at').notNull().defaultNow();
/** Money is integer kobo. */
const kobo = (name: string) => bigint(name, { mode: 'number' });

/** Every account: companies, lawyers and admins share one table so one e-mail is one account. */
export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userType: text('user_type', { enum: ['company', 'lawyer', 'admin'] }).notNull(),
    officialEmail: text('official_email').notNull(),
    passwordHash: text('password_hash').notNull(),
    name: text('name').notNull(),
    phoneNumber: text('phone_number').notNull(),
    emailConfirmedAt: ts('email_confirmed_at'),
    // company
    companyName: text('company_name'),
    contactName: text('contact_name'),
    officeAddress: text('office_address'),
    industry: text('industry'),
    website: text('website'),
    // company and lawyer
    cac: text('cac'),
    yourBio: text('your_bio'),
    alternativeEmailAddress: text('alternative_email_address'),
    profileImage: text('profile_image'),
    // lawyer
    scn: text('scn'),
    lawFirmName: text('law_firm_name'),
    lawFirmAddress: text('law_firm_address'),
    areasOfPractise: text('areas_of_practise')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    yearOfCall: text('year_of_call'),
    verified: boolean('verified').notNull().default(false),
    /** An admin refused the verification, and the reason the lawyer was e-mailed (0020; decision 1860). */
    verificationRejectedAt: ts('verification_rejected_at'),
    verificationRejectionReason: text('verification_rejection_reason'),
    /** The terms and privacy policy version accepted at sign-up, and when (0019; null: not recorded). */
    termsVersion: text('terms_version'),
    termsAcceptedAt: ts('terms_accepted_at'),
    /** Set when the account was deleted: the row stays, erased, for the records the law keeps (0019). */
    deletedAt: ts('deleted_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('users_email_uq').on(t.officialEmail),
    index('users_type_verified_created_idx').on(t.userType, t.verified, t.createdAt),
  ],
);

/** A row per login; logout, password reset and verification revoke it, so a token dies at once. */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: ts('expires_at').notNull(),
    revokedAt: ts('revoked_at'),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

/**
 * Links and codes sent by e-mail. Only a hash is stored. `purpose`:
 * email_confirm (link), password_reset (6-digit code), password_reset_grant (token after the code),
 * payout_otp (6-digit code), payout_grant (confirmed code, lets the lawyer edit payout details).
 */
export const oneTimeTokens = pgTable(
  'one_time_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose').notNull(),
    tokenHash: text('token_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    /** E-mail changes: the new address of a pending change, or the address an undo link restores. */
    email: text('email'),
    /** A pending e-mail change: the session that asked, which outlives the confirmation (migration 0028). */
    sessionId: uuid('session_id').references(() => sessions.id, { onDelete: 'set null' }),
    /** A "this wasn't me" link: the two-factor enrolment it undoes, and no other (migration 0029). */
    twoFactorEnrolmentId: uuid('two_factor_enrolment_id'),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
    createdAt: createdAt(),
  },
  (t) => [index('ott_user_purpose_idx').on(t.userId, t.purpose), index('ott_hash_idx').on(t.tokenHash)],
);

/** Transactional outbox: mail is written with the change that caused it and sent by a worker. */
export const emailOutbox = pgTable(
  'email_outbox',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html'),
    /** What to attach, rendered by the worker when it sends (never the bytes): see platform/mailer.ts. */
    attachments: jsonb('attachments').$type<{ kind: string; id: string; filename: string }[]>(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at').notNull().defaultNow(),
    sentAt: ts('sent_at'),
    lastError: text('last_error'),
    createdAt: createdAt(),
  },
  (t) => [
    index('outbox_unsent_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.sentAt} is null`),
  ],
);

export const appSettings = pgTable('app_settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: updatedAt(),
});

/** Files stored through the storage interface; `key` is random, never the client's name. */
export const uploads = pgTable(
  'uploads',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    key: text('key').notNull(),
    originalName: text('original_name').notNull(),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    kind: text('kind', { enum: ['image', 'document'] }).notNull(),
    ownerId: uuid('owner_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('uploads_key_uq').on(t.key)],
);

export const products = pgTable(
  'products',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    productName: text('product_name').notNull(),
    productPrice: kobo('product_price_kobo').notNull(),
    productDescription: text('product_description').notNull(),
    productImage: text('product_image').notNull(),
    category: text('category'),
    /** One of EXPERTISE (migration 0017, decision 2010). */
    area: text('area'),
    whatYouGet: text('what_you_get'),
    /** Working days, 1 to 90. */
    deliveryDays: integer('delivery_days'),
    included: text('included')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    youProvide: text('you_provide')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    notIncluded: text('not_included')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Deleting hides a product from the catalogue; jobs keep pointing at it. */
    deletedAt: ts('deleted_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('products_live_idx')
      .on(t.createdAt)
      .where(sql`${t.deletedAt} is null`),
  ],
);

export const reviews = pgTable(
  'reviews',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    reviewTitle: text('review_title').notNull(),
    review: text('review').notNull(),
    status: integer('status').notNull(),
    date: ts('date').notNull().defaultNow(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('reviews_product_idx').on(t.productId, t.date),
    index('reviews_date_idx').on(t.date),
    // One review per company and product: a second POST edits it (migration 0016, decision 2001).
    uniqueIndex('reviews_company_product_uq').on(t.companyId, t.productId),
  ],
);

export const cartItems = pgTable(
  'cart_items',
  {
    companyId: uuid('company_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    quantity: integer('quantity').notNull(),
    detail: text('detail'),
    file: text('file'),
    fileName: text('file_name'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.productId] })],
);

/** A visitor's reservation already moved into this company's cart: a retry or a second tab moves it once. */
export const reservationMoves = pgTable(
  'reservation_moves',
  {
    companyId: uuid('company_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    reservationId: uuid('reservation_id').notNull(),
    movedAt: ts('moved_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.reservationId] })],
);

export const orders = pgTable(
  'orders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => users.id),
    txRef: text('tx_ref').notNull(),
    amount: kobo('amount_kobo').notNull(),
    currency: text('currency').notNull().default('NGN'),
    status: text('status', { enum: ORDER_STATUSES }).notNull().default('pending'),
    provider: text('provider').notNull(),
    providerTransactionId: text('provider_transaction_id'),
    title: text('title').notNull(),
    /** The cart lines as they were at checkout, at catalogue prices. */
    lines: jsonb('lines').notNull(),
    /** How the customer paid, from the provider's verify answer (`card`, `ussd`, `bank_transfer`...); null before 0008. */
    paymentMethod: text('payment_method'),
    /** The company's name, address and e-mail at payment, as the receipt prints them (migration 0008). */
    billedTo: jsonb('billed_to').$type<{ name: string; address: string | null; email: string }>(),
    createdAt: createdAt(),
    paidAt: ts('paid_at'),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('orders_tx_ref_uq').on(t.txRef),
    index('orders_company_idx').on(t.companyId, t.createdAt),
    index('orders_status_idx').on(t.status, t.createdAt),
    /** At most one pending order per company: concurrent checkout starts share it. */
    uniqueIndex('orders_one_pending_uq')
      .on(t.companyId)
      .where(sql`${t.status} = 'pending'`),
    /** One provider transaction pays one order at most. */
    uniqueIndex('orders_provider_transaction_uq')
      .on(t.provider, t.providerTransactionId)
      .where(sql`${t.providerTransactionId} is not null`),
  ],
);

/** Transactions recorded by the offline sandbox provider (Flutterwave-shaped). */
export const sandboxTransactions = pgTable('sandbox_transactions', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  txRef: text('tx_ref').notNull(),
  amount: kobo('amount_kobo').notNull(),
  currency: text('currency').notNull(),
  status: text('status').notNull(),
  paymentType: text('payment_type').notNull(),
  customerEmail: text('customer_email'),
  processorResponse: text('processor_response'),
  /** The provider's payment plan the charge was made on (migration 0015). */
  paymentPlan: bigint('payment_plan', { mode: 'number' }),
  createdAt: createdAt(),
});

export const jobs = pgTable(
  'jobs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id),
    lineNo: integer('line_no').notNull(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => users.id),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id),
    /** The spec's list status, kept equal to job_spec_status(stage) by migration 0005's trigger. */
    status: text('status', { enum: ['unassigned', 'pending', 'completed', 'cancelled'] })
      .notNull()
      .default('unassigned'),
    stage: text('stage', { enum: JOB_STAGES }).notNull().default('unassigned'),
    /** Set at payment (10 working days); the default only serves rows written without one. */
    dueAt: ts('due_at')
      .notNull()
      .default(sql`now() + interval '14 days'`),
    deliveredAt: ts('delivered_at'),
    cancelledAt: ts('cancelled_at'),
    /** How many deliveries so far: the clock's delivery timers belong to one of them. */
    deliveries: integer('deliveries').notNull().default(0),
    quantity: integer('quantity').notNull(),
    amount: kobo('amount_kobo').notNull(),
    detail: text('detail'),
    companyDetail: text('company_detail'),
    companyFile: text('company_file'),
    companyFileName: text('company_file_name'),
    lawyerRequestedDetail: text('lawyer_requested_detail'),
    adminDetail: text('admin_detail'),
    adminFile: text('admin_file'),
    adminFileName: text('admin_file_name'),
    assignedTo: uuid('assigned_to').references(() => users.id),
    assignedAt: ts('assigned_at'),
    completedAt: ts('completed_at'),
    /** The monthly plan whose credit opened this job (migration 0015); null for a bought product. */
    subscriptionId: uuid('subscription_id'),
    /** A plan job's kind of credit and the plan month it was spent in (migration 0024): a cancel gives it back while that month lasts. */
    planCreditKind: text('plan_credit_kind', { enum: PLAN_CREDIT_KINDS }),
    planPeriod: integer('plan_period'),
    /** The key the company named the credit request with: the same request sent again opens no second job (0027). */
    planRequestKey: text('plan_request_key'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('jobs_order_line_uq').on(t.orderId, t.lineNo),
    uniqueIndex('jobs_plan_request_key')
      .on(t.companyId, t.planRequestKey)
      .where(sql`${t.planRequestKey} is not null`),
    index('jobs_status_created_idx').on(t.status, t.createdAt),
    index('jobs_company_status_idx').on(t.companyId, t.status, t.createdAt),
    index('jobs_assigned_status_idx').on(t.assignedTo, t.status, t.createdAt),
    index('jobs_stage_due_idx').on(t.stage, t.dueAt),
  ],
);

/** The job's timeline and thread: every lifecycle action taken on it (migration 0005). */
export const jobEvents = pgTable(
  'job_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    jobId: uuid('job_id')
      .notNull()
      .references(() => jobs.id, { onDelete: 'cascade' }),
    action: text('action').notNull(),
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    actorRole: text('actor_role').notNull(),
    note: text('note'),
    files: jsonb('files').$type<Array<{ url: string; name: string }>>().notNull().default([]),
    fromStage: text('from_stage'),
    toStage: text('to_stage').notNull(),
    createdAt: createdAt(),
    /** The key the client named a job page action with: the same action sent again is taken once (0022). */
    clientKey: text('client_key'),
  },
  (t) => [index('job_events_job_idx').on(t.jobId, t.id)],
);

/** The newest event each party has seen of a job's thread. */
export const jobReads = pgTable(
  'job_reads',
  {
    jobId: uuid('job_id')
      .notNull()
      .references(() => jobs.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    lastEventId: bigint('last_event_id', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.userId] })],
);

export const notifications = pgTable(
  'notifications',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    jobId: uuid('job_id')
      .notNull()
      .references(() => jobs.id, { onDelete: 'cascade' }),
    eventId: bigint('event_id', { mode: 'number' })
      .notNull()
      .references(() => jobEvents.id, { onDelete: 'cascade' }),
    action: text('action').notNull(),
    text: text('text').notNull(),
    createdAt: createdAt(),
    readAt: ts('read_at'),
  },
  (t) => [index('notifications_user_idx').on(t.userId, t.id)],
);

/** Public holidays that working days skip; admins edit them. */
export const holidays = pgTable('holidays', {
  day: date('day', { mode: 'string' }).primaryKey(),
  name: text('name').notNull(),
});

/** The clock's transitions, each fired at most once (UNIQUE job, action, cycle). */
export const jobTimers = pgTable(
  'job_timers',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    jobId: uuid('job_id')
      .notNull()
      .references(() => jobs.id, { onDelete: 'cascade' }),
    action: text('action').notNull(),
    cycle: integer('cycle').notNull().default(0),
    fireAt: ts('fire_at').notNull(),
    firedAt: ts('fired_at'),
  },
  (t) => [uniqueIndex('job_timers_job_id_action_cycle_key').on(t.jobId, t.action, t.cycle)],
);

export const jobApplications = pgTable(
  'job_applications',
  {
    jobId: uuid('job_id')
      .notNull()
      .references(() => jobs.id, { onDelete: 'cascade' }),
    lawyerId: uuid('lawyer_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.lawyerId] }), index('job_app_lawyer_idx').on(t.lawyerId)],
);

export const payoutDetails = pgTable('payout_details', {
  lawyerId: uuid('lawyer_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  accountNumber: text('account_number').notNull(),
  accountName: text('account_name').notNull(),
  bank: text('bank').notNull(),
  /** Flutterwave's `account_bank` for the bank (migration 0007_payouts). */
  bankCode: text('bank_code'),
  /** What the lawyer typed, when the bank's name (account_name) differs. */
  typedName: text('typed_name'),
  /** When the provider resolved the account; null for details saved before resolution (no payout until re-sent). */
  resolvedAt: ts('resolved_at'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    action: text('action').notNull(),
    targetType: text('target_type'),
    targetId: text('target_id'),
    details: jsonb('details'),
    createdAt: createdAt(),
  },
  (t) => [
    index('audit_created_idx').on(t.createdAt),
    index('audit_actor_created_idx').on(t.actorId, t.createdAt),
    index('audit_action_created_idx').on(t.action, t.createdAt),
    index('audit_target_idx').on(t.targetType, t.targetId),
  ],
);

/** An account's authenticator app (migration 0018, decision 2020): the secret is stored encrypted. */
export const twoFactor = pgTable('two_factor', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  secretEnc: text('secret_enc').notNull(),
  /** New with each row: a "this wasn't me" link names the enrolment it was sent for (migration 0029). */
  enrolmentId: uuid('enrolment_id').notNull().defaultRandom(),
  /** Null while the enrolment waits for its first code. */
  enabledAt: ts('enabled_at'),
  /** The last TOTP time step accepted; that step and earlier ones are never accepted again. */
  lastUsedStep: bigint('last_used_step', { mode: 'number' }),
  createdAt: createdAt(),
});

/** Recovery codes, hashed, each usable once. */
export const twoFactorRecoveryCodes = pgTable(
  'two_factor_recovery_codes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: ts('used_at'),
  },
  (t) => [index('two_factor_recovery_user_idx').on(t.userId)],
);

/** When a session last proved a second factor (the step-up of actions on money). */
export const twoFactorChecks = pgTable('two_factor_checks', {
  sessionId: uuid('session_id')
    .primaryKey()
    .references(() => sessions.id, { onDelete: 'cascade' }),
  checkedAt: ts('checked_at').notNull(),
});

/**
 * How many jobs are in each list, kept by a trigger on jobs (migration 0001_job_counts) so the paged
 * lists answer their totals without counting 100,000 rows. Keys: `status:<status>` and `open`
 * (unassigned with nobody assigned: the lawyers' available jobs).
 */
export const jobCounts = pgTable('job_counts', {
  key: text('key').primaryKey(),
  n: bigint('n', { mode: 'number' }).notNull().default(0),
});

/**
 * The ledger (migration 0006_ledger, docs/decisions/1700-one-ledger.md): append-only, each transaction's
 * entries sum to zero at commit, and partial unique indexes make each payment, earning, refund and payout
 * step happen once.
 */
export const ledgerTransactions = pgTable(
  'ledger_transactions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    kind: text('kind', { enum: LEDGER_KINDS }).notNull(),
    orderId: uuid('order_id').references(() => orders.id),
    jobId: uuid('job_id').references(() => jobs.id),
    payoutId: uuid('payout_id'),
    refundId: uuid('refund_id'),
    /** The plan payment a plan posting follows (migration 0015). */
    subscriptionPaymentId: bigint('subscription_payment_id', { mode: 'number' }),
    memo: text('memo').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('ledger_payment_once')
      .on(t.orderId)
      .where(sql`${t.kind} = 'payment'`),
    /** A job is paid out or cancelled, once. */
    uniqueIndex('ledger_earning_once')
      .on(t.jobId)
      .where(sql`${t.kind} in ('earning', 'cancellation')`),
    /** A cancelled plan job's credit goes back to its plan once (0024_plan_job_cancel). */
    uniqueIndex('ledger_plan_credit_return_once')
      .on(t.jobId)
      .where(sql`${t.kind} = 'plan_credit_return'`),
    uniqueIndex('ledger_payout_once')
      .on(t.payoutId, t.kind)
      .where(sql`${t.payoutId} is not null`),
    /** One provider fee per paid order (0011_provider_fees); a payout's fee is one of its steps. */
    uniqueIndex('ledger_fee_once')
      .on(t.orderId)
      .where(sql`${t.kind} = 'fee' and ${t.orderId} is not null`),
    /** And one per paid plan payment (0021_plan_payment_fees). */
    uniqueIndex('ledger_fee_once_plan')
      .on(t.subscriptionPaymentId)
      .where(sql`${t.kind} = 'fee' and ${t.subscriptionPaymentId} is not null`),
    uniqueIndex('ledger_refund_once')
      .on(t.refundId, t.kind)
      .where(sql`${t.refundId} is not null`),
    index('ledger_transactions_created_idx').on(t.createdAt, t.id),
  ],
);

export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    transactionId: bigint('transaction_id', { mode: 'number' })
      .notNull()
      .references(() => ledgerTransactions.id),
    account: text('account', { enum: LEDGER_ACCOUNTS }).notNull(),
    /** Kobo: debit positive, credit negative. */
    amount: kobo('amount_kobo').notNull(),
    jobId: uuid('job_id'),
    companyId: uuid('company_id'),
    lawyerId: uuid('lawyer_id'),
    /** A lawyer's earning may be withdrawn from this moment (the holding period). */
    availableAt: ts('available_at'),
    createdAt: createdAt(),
  },
  (t) => [
    index('ledger_entries_transaction_idx').on(t.transactionId),
    index('ledger_entries_lawyer_idx')
      .on(t.lawyerId, t.account)
      .where(sql`${t.lawyerId} is not null`),
    index('ledger_entries_job_idx')
      .on(t.jobId)
      .where(sql`${t.jobId} is not null`),
    index('ledger_entries_company_idx')
      .on(t.companyId)
      .where(sql`${t.companyId} is not null`),
  ],
);

/**
 * A cancelled job's refund (migration 0006_ledger): one per job, completed once by the provider. Or, with
 * no job (0031_unapplied_payment_refunds), the refund of money a payment paid for nothing: one per
 * provider transaction, which it names.
 */
export const refunds = pgTable(
  'refunds',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    jobId: uuid('job_id').references(() => jobs.id),
    /** The payment it gives back, when not the order's (a payment of an order already paid or closed). */
    providerTransactionId: text('provider_transaction_id'),
    /** Null for a refund of a monthly plan's payment (migration 0032), which names its company and reference. */
    orderId: uuid('order_id').references(() => orders.id),
    /** The company a plan payment's refund gives back to (else the order's). */
    companyId: uuid('company_id').references(() => users.id),
    /** The plan payment's reference (else the order's). */
    reference: text('reference'),
    amount: kobo('amount_kobo').notNull(),
    reason: text('reason'),
    status: text('status', { enum: REFUND_STATUSES }).notNull().default('pending'),
    provider: text('provider').notNull(),
    providerRefundId: text('provider_refund_id'),
    failure: text('failure'),
    requestedBy: uuid('requested_by').references(() => users.id),
    /** When the provider first refused it (migration 0035): the background pass gives up three days on. */
    firstRefusedAt: ts('first_refused_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    settledAt: ts('settled_at'),
  },
  (t) => [
    uniqueIndex('refunds_job_uq').on(t.jobId),
    uniqueIndex('refunds_unapplied_uq')
      .on(t.provider, t.providerTransactionId)
      .where(sql`${t.jobId} is null`),
    uniqueIndex('refunds_provider_uq')
      .on(t.provider, t.providerRefundId)
      .where(sql`${t.providerRefundId} is not null`),
    index('refunds_status_idx').on(t.status, t.createdAt),
  ],
);

/** Refunds recorded by the offline sandbox provider (Flutterwave-shaped). */
export const sandboxRefunds = pgTable('sandbox_refunds', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  transactionId: bigint('transaction_id', { mode: 'number' }).notNull(),
  amount: kobo('amount_kobo').notNull(),
  status: text('status').notNull(),
  createdAt: createdAt(),
});

/** A lawyer's withdrawal (migration 0007_payouts): requested, sent once after approval, settled once. */
export const payouts = pgTable(
  'payouts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    lawyerId: uuid('lawyer_id')
      .notNull()
      .references(() => users.id),
    amount: kobo('amount_kobo').notNull(),
    status: text('status', { enum: PAYOUT_STATUSES }).notNull().default('requested'),
    bank: text('bank').notNull(),
    bankCode: text('bank_code').notNull(),
    accountNumber: text('account_number').notNull(),
    accountName: text('account_name').notNull(),
    provider: text('provider').notNull(),
    providerTransferId: text('provider_transfer_id'),
    failure: text('failure'),
    approvedBy: uuid('approved_by').references(() => users.id),
    /** An admin turned the request down before it was sent (0013_payout_rejection). */
    rejectedBy: uuid('rejected_by').references(() => users.id),
    rejectedAt: ts('rejected_at'),
    rejectionReason: text('rejection_reason'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    approvedAt: ts('approved_at'),
    settledAt: ts('settled_at'),
    /** When a paid payout was last looked up for a reversal whose webhook may have been lost (0026). */
    reversalCheckedAt: ts('reversal_checked_at'),
  },
  (t) => [
    uniqueIndex('payouts_provider_uq')
      .on(t.provider, t.providerTransferId)
      .where(sql`${t.providerTransferId} is not null`),
    index('payouts_lawyer_idx').on(t.lawyerId, t.createdAt),
    index('payouts_status_idx').on(t.status, t.createdAt),
    index('payouts_paid_settled_idx')
      .on(t.settledAt)
      .where(sql`${t.status} = 'paid'`),
  ],
);

/** Transfers recorded by the offline sandbox provider (Flutterwave-shaped, one per reference). */
export const sandboxTransfers = pgTable(
  'sandbox_transfers',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    reference: text('reference').notNull(),
    amount: kobo('amount_kobo').notNull(),
    bankCode: text('bank_code').notNull(),
    accountNumber: text('account_number').notNull(),
    narration: text('narration').notNull(),
    status: text('status').notNull(),
    completeMessage: text('complete_message'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('sandbox_transfers_reference_uq').on(t.reference)],
);

/** A company's review of the lawyer who completed its job: one per job, one answer (migration 0016). */
export const lawyerReviews = pgTable(
  'lawyer_reviews',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    jobId: uuid('job_id')
      .notNull()
      .references(() => jobs.id, { onDelete: 'cascade' }),
    companyId: uuid('company_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    lawyerId: uuid('lawyer_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    stars: integer('stars').notNull(),
    reviewTitle: text('review_title').notNull(),
    review: text('review').notNull(),
    reply: text('reply'),
    repliedAt: ts('replied_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('lawyer_reviews_job_uq').on(t.jobId),
    index('lawyer_reviews_lawyer_idx').on(t.lawyerId, t.createdAt),
  ],
);

/** The provider's payment plan for each tier, made once (migration 0015). */
export const planProviderPlans = pgTable(
  'plan_provider_plans',
  {
    provider: text('provider').notNull(),
    tier: text('tier', { enum: PLAN_TIERS }).notNull(),
    providerPlanId: text('provider_plan_id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.tier] })],
);

/** A company's monthly plan (decision 1900): one live (active or grace) per company. */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => users.id),
    tier: text('tier', { enum: PLAN_TIERS }).notNull(),
    nextTier: text('next_tier', { enum: PLAN_TIERS }),
    status: text('status', { enum: PLAN_STATUSES }).notNull(),
    provider: text('provider').notNull(),
    customerEmail: text('customer_email').notNull(),
    cardToken: text('card_token'),
    periodStart: ts('period_start').notNull(),
    periodEnd: ts('period_end').notNull(),
    /** Which month this is (1 for the first): renewal references name it. */
    period: integer('period').notNull().default(1),
    /** Renewal charges tried for the next month. */
    attempts: integer('attempts').notNull().default(0),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    graceUntil: ts('grace_until'),
    nextReminderAt: ts('next_reminder_at'),
    /** A scheduler took this renewal and is asking the provider until then. */
    claimedUntil: ts('claimed_until'),
    credits: jsonb('credits').$type<PlanCredits>().notNull(),
    creditsUsed: jsonb('credits_used').$type<PlanCredits>().notNull(),
    /** What one credit of this month is worth (kobo): what a plan job's lawyer is paid from. */
    creditValue: kobo('credit_value_kobo').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('subscriptions_one_live')
      .on(t.companyId)
      .where(sql`${t.status} in ('active', 'grace')`),
    index('subscriptions_due_idx')
      .on(t.periodEnd)
      .where(sql`${t.status} in ('active', 'grace')`),
    index('subscriptions_company_idx').on(t.companyId, t.createdAt),
  ],
);

/** A plan's payments: the first (through the checkout dialog) and each renewal. */
export const subscriptionPayments = pgTable(
  'subscription_payments',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    subscriptionId: uuid('subscription_id').references(() => subscriptions.id),
    companyId: uuid('company_id')
      .notNull()
      .references(() => users.id),
    tier: text('tier', { enum: PLAN_TIERS }).notNull(),
    kind: text('kind', { enum: ['first', 'renewal'] }).notNull(),
    txRef: text('tx_ref').notNull(),
    amount: kobo('amount_kobo').notNull(),
    status: text('status', { enum: ['pending', 'paid', 'failed'] }).notNull(),
    provider: text('provider').notNull(),
    providerPlanId: text('provider_plan_id').notNull(),
    providerTransactionId: text('provider_transaction_id'),
    paymentMethod: text('payment_method'),
    createdAt: createdAt(),
    paidAt: ts('paid_at'),
    /**
     * The charge was made with the provider's payment plan, which subscribes the card (Flutterwave then
     * charges it on its own): its subscription is to be cancelled from then (a scheduler cancelling it
     * moves this on; migration 0023).
     */
    providerCancelAfter: ts('provider_cancel_after'),
    /** When the provider's subscription this charge made was cancelled. */
    providerCancelledAt: ts('provider_cancelled_at'),
    /**
     * The e-mail of the charge whose provider subscription is to be cancelled: the provider finds it by
     * plan and that e-mail (migration 0030). Empty on rows from before, cancelled under the plan's or company's.
     */
    customerEmail: text('customer_email'),
  },
  (t) => [
    uniqueIndex('subscription_payments_tx_ref_uq').on(t.txRef),
    index('subscription_payments_provider_cancel_idx')
      .on(t.providerCancelAfter)
      .where(sql`${t.providerCancelAfter} is not null and ${t.providerCancelledAt} is null`),
    uniqueIndex('subscription_payments_provider_tx_uq')
      .on(t.provider, t.providerTransactionId)
      .where(sql`${t.providerTransactionId} is not null`),
    index('subscription_payments_sub_idx').on(t.subscriptionId, t.id),
  ],
);

/** A plan's timeline. */
export const subscriptionEvents = pgTable(
  'subscription_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    subscriptionId: uuid('subscription_id')
      .notNull()
      .references(() => subscriptions.id),
    kind: text('kind', { enum: PLAN_EVENT_KINDS }).notNull(),
    note: text('note').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('subscription_events_sub_idx').on(t.subscriptionId, t.id)],
);

/** The sandbox provider's payment plans (Flutterwave: POST /v3/payment-plans). */
export const sandboxPaymentPlans = pgTable('sandbox_payment_plans', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  name: text('name').notNull(),
  amount: kobo('amount_kobo').notNull(),
  interval: text('interval').notNull(),
  createdAt: createdAt(),
});

/** The sandbox provider's subscriptions: a customer charged on a plan (Flutterwave: GET /v3/subscriptions). */
export const sandboxSubscriptions = pgTable(
  'sandbox_subscriptions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    planId: bigint('plan_id', { mode: 'number' }).notNull(),
    customerEmail: text('customer_email').notNull(),
    status: text('status').notNull().default('active'),
    /** Sandbox only: the card's next renewal charges fail (Insufficient Funds). */
    failRenewals: boolean('fail_renewals').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('sandbox_subscriptions_uq').on(t.planId, t.customerEmail)],
);
