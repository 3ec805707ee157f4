/**
 * THE authorization table (issue 8, item 1): for every registered route, and for each object it is
 * called on, the answer each actor must get. 'ok' = a 2xx; a number = exactly that status.
 *
 * Keys are `METHOD url` exactly as Fastify registers them (HEAD routes share their GET row). A route that
 * is registered but missing here fails authz-matrix.test.ts, so a new route cannot ship without a row.
 *
 * Variants name the object the call is made on, by its owner, so every actor is tried both on its
 * own object and on someone else's:
 *   ofA / ofB        an object of company A / company B (review, job, order, document, profile)
 *   assignedOfA      company A's paid job assigned to `lawyer`; assignedOfB: B's job assigned to `otherLawyer`
 *   openOfA          company A's paid job nobody is assigned to yet
 *   self             the caller's own account (guests send company A's id)
 *   ofOther          a payout record naming another lawyer's id
 *   openDocOfA       the document on company A's open job (no lawyer is assigned, so no lawyer opens it)
 *   plantedInA       company B's document named by company A's assigned job, as the old code let A write
 *                    it (issue 14): a reference grants neither A nor A's lawyer anything
 *   ownFile          a company names its own upload on its own cart line or job
 *   fileOfOther      a company names the other company's upload (issue 14: refused, 403)
 *
 * 400 marks an actor that reaches the route's rule and is refused by it (a lawyer with nothing to withdraw).
 */
export const ACTORS = ['guest', 'companyA', 'companyB', 'lawyerUnverified', 'lawyer', 'otherLawyer', 'admin'] as const;
export type Actor = (typeof ACTORS)[number];
export type Outcome = 'ok' | 400 | 401 | 403 | 404 | 409;
export type Row = Record<Actor, Outcome>;

/** Columns in ACTORS order: guest, company A, company B, unverified lawyer, lawyer, other lawyer, admin. */
const e = (...cells: Outcome[]): Row => Object.fromEntries(ACTORS.map((a, i) => [a, cells[i]])) as Row;

const PUBLIC = e('ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok');
const SIGNED_IN = e(401, 'ok', 'ok', 'ok', 'ok', 'ok', 'ok');
const COMPANY = e(401, 'ok', 'ok', 403, 403, 403, 403);
const LAWYER = e(401, 403, 403, 'ok', 'ok', 'ok', 403);
const ADMIN = e(401, 403, 403, 403, 403, 403, 'ok');
const NOBODY_401 = e(401, 401, 401, 401, 401, 401, 401);
const NOBODY_403 = e(403, 403, 403, 403, 403, 403, 403);
/** Refused to everyone signed in (a guest is not asked who it is: 401). */
const NOBODY_403_SIGNED_IN = e(401, 403, 403, 403, 403, 403, 403);

export const TABLE: Record<string, Record<string, Row>> = {
  // platform
  'GET /api/health': { any: PUBLIC },
  'GET /api/public-config': { any: PUBLIC },
  'GET /api/showcase': { any: PUBLIC },
  'GET /api/remuneration-order': { any: PUBLIC },
  'PUT /api/remuneration-order': { any: ADMIN },
  // Development mailbox: not registered when NODE_ENV=production (proved in authz-matrix.test.ts).
  'GET /dev/mailbox': { any: PUBLIC },
  // An attachment of a mail in the development mailbox (development only, as the mailbox itself).
  'GET /dev/mailbox/:id/attachments/:index': { any: PUBLIC },
  'GET /api/docs': { any: PUBLIC },
  'GET /api/docs/static/index.html': { any: PUBLIC },
  'GET /api/docs/static/swagger-initializer.js': { any: PUBLIC },
  'GET /api/docs/static/*': { any: PUBLIC },
  'GET /api/docs/json': { any: PUBLIC },
  'GET /api/docs/yaml': { any: PUBLIC },
  // Unsigned deliveries are refused whoever sends them (forged signatures: the other half of issue 8).
  'POST /api/payments/webhook': { unsigned: NOBODY_401 },

  // accounts
  'POST /api/company/signup': { any: PUBLIC },
  'POST /api/lawyer/signup': { any: PUBLIC },
  'POST /api/admin/signup': { rightInvite: PUBLIC, wrongInvite: NOBODY_403 },
  'POST /api/confirm-email': { any: PUBLIC },
  'POST /api/resendconfirmemail': { any: PUBLIC },
  // Changing the sign-in e-mail: the link token is the proof, sent to the new (confirm) or old (undo) inbox.
  'POST /api/confirm-email-change': { any: PUBLIC },
  'POST /api/undo-email-change': { any: PUBLIC },
  'POST /api/login': { any: PUBLIC },
  // Two-factor (decision 2020). The second step of a sign-in is public: the challenge and a code are the proof.
  'POST /api/login/two-factor': { enrolled: PUBLIC, unknownChallenge: NOBODY_401 },
  'GET /api/two-factor': { any: SIGNED_IN },
  'POST /api/two-factor/setup': { any: SIGNED_IN },
  // Every signed-in account reaches the rule: with no set-up waiting, enabling is refused (400); with
  // two-factor off, verifying and disabling are refused (409). The right-code paths: two-factor.test.ts.
  'POST /api/two-factor/enable': { any: e(401, 400, 400, 400, 400, 400, 400) },
  'POST /api/two-factor/verify': { any: e(401, 409, 409, 409, 409, 409, 409) },
  'POST /api/two-factor/disable': { any: e(401, 409, 409, 409, 409, 409, 409) },
  // "This wasn't me" (decision 2220): the link token mailed to the owner is the proof; whoever is signed in.
  'GET /api/two-factor/not-me': { any: PUBLIC },
  'POST /api/two-factor/not-me': { any: PUBLIC },
  // Payout details' "This wasn't me" (decision 2244): likewise, the mailed token is the proof.
  'GET /api/payment-details/not-me': { any: PUBLIC },
  'POST /api/payment-details/not-me': { any: PUBLIC },
  // Development only (not registered in production): forgets the caller's own session's last code.
  'POST /dev/two-factor/forget-code': { any: SIGNED_IN },
  // Idempotent (issue 14): with no session left there is nothing to end, and the answer is the same.
  'POST /api/logout': { any: PUBLIC },
  // Ends the caller's own other sessions only (decision 2245): no object of anyone else's to name.
  'POST /api/logout/others': { any: SIGNED_IN },
  'POST /api/forgot-password': { any: PUBLIC },
  'POST /api/confirm-reset-token': { any: PUBLIC },
  'PATCH /api/reset-password': { any: PUBLIC },
  'GET /api/userprofile': {
    self: SIGNED_IN,
    ofA: e(401, 'ok', 403, 403, 403, 403, 403),
    ofB: e(401, 403, 'ok', 403, 403, 403, 403),
  },
  'PATCH /api/updateprofile': {
    self: e(401, 'ok', 'ok', 'ok', 'ok', 'ok', 403),
    ofA: e(401, 'ok', 403, 403, 403, 403, 403),
    ofB: e(401, 403, 'ok', 403, 403, 403, 403),
  },

  // data protection (decision 2030): one's own data only, nobody (admins included) exports another's;
  // deletion asks for the password (a throwaway account of the actor's role is deleted for real).
  'GET /api/account/export': {
    self: SIGNED_IN,
    ofA: e(401, 'ok', 403, 403, 403, 403, 403),
    ofB: e(401, 403, 'ok', 403, 403, 403, 403),
  },
  'GET /api/account/deletion': { any: SIGNED_IN },
  'POST /api/account/delete': { throwaway: SIGNED_IN, wrongPassword: e(401, 403, 403, 403, 403, 403, 403) },

  // catalogue
  'GET /product-api/products': { any: PUBLIC },
  'GET /product-api/product/:id': { live: PUBLIC, deleted: e(404, 404, 404, 404, 404, 404, 404) },
  'POST /api/create': { any: ADMIN },
  'PUT /api/update/:id': { any: ADMIN },
  'DELETE /api/delete/:id': { any: ADMIN },

  // uploads
  'POST /api/uploads': { any: SIGNED_IN },
  'GET /api/files/:key/link': {
    imageOfA: SIGNED_IN,
    docOfA: e(401, 'ok', 403, 403, 'ok', 403, 'ok'),
    docOfB: e(401, 403, 'ok', 403, 403, 'ok', 'ok'),
    openDocOfA: e(401, 'ok', 403, 403, 403, 403, 'ok'),
    plantedInA: e(401, 403, 'ok', 403, 403, 403, 'ok'),
  },
  'GET /uploads/:key': {
    imageOfA: PUBLIC,
    docOfA: e(401, 'ok', 403, 403, 'ok', 403, 'ok'),
    docOfB: e(401, 403, 'ok', 403, 403, 'ok', 'ok'),
    openDocOfA: e(401, 'ok', 403, 403, 403, 403, 'ok'),
    plantedInA: e(401, 403, 'ok', 403, 403, 403, 'ok'),
  },

  // reviews
  'GET /ratings-api/rating': { any: PUBLIC },
  'POST /api/rating': { any: COMPANY },
  'PATCH /api/rating/:id': {
    ofA: e(401, 'ok', 403, 403, 403, 403, 403),
    ofB: e(401, 403, 'ok', 403, 403, 403, 403),
  },
  'DELETE /api/rating/:id': {
    ofA: e(401, 'ok', 403, 403, 403, 403, 'ok'),
    ofB: e(401, 403, 'ok', 403, 403, 403, 'ok'),
  },
  // Reviews of lawyers (decision 2000): ofA / ofB = a completed job (or its review) of company A done by
  // `lawyer`, of company B done by `otherLawyer`; `own` = a completed job of the calling company.
  'POST /api/lawyer-reviews': {
    own: COMPANY,
    ofA: e(401, 'ok', 403, 403, 403, 403, 403),
    ofB: e(401, 403, 'ok', 403, 403, 403, 403),
  },
  'PATCH /api/lawyer-reviews/:id': {
    ofA: e(401, 'ok', 403, 403, 403, 403, 403),
    ofB: e(401, 403, 'ok', 403, 403, 403, 403),
  },
  'POST /api/lawyer-reviews/:id/reply': {
    ofA: e(401, 403, 403, 403, 'ok', 403, 403),
    ofB: e(401, 403, 403, 403, 403, 'ok', 403),
  },
  'GET /api/lawyers/:id/reviews': { any: SIGNED_IN },
  'GET /api/admin/lawyer-records': { any: ADMIN },

  // cart and checkout (the cart is the caller's own by construction: no id names it)
  'POST /api/cart': { any: COMPANY, ownFile: COMPANY, fileOfOther: NOBODY_403_SIGNED_IN },
  'POST /api/cart/reservations': { any: COMPANY },
  'GET /api/cart': { any: COMPANY },
  'DELETE /api/cart/:productId': { any: COMPANY },
  'POST /api/clear-cart': { any: COMPANY },
  'POST /api/checkout': { any: COMPANY },
  'POST /api/checkout/verify': {
    ofA: e(401, 'ok', 403, 403, 403, 403, 403),
    ofB: e(401, 403, 'ok', 403, 403, 403, 403),
  },
  'POST /api/checkout/sandbox/charge': {
    ofA: e(401, 'ok', 404, 403, 403, 403, 403),
    ofB: e(401, 404, 'ok', 403, 403, 403, 403),
  },
  // Bank transfer (issue 17): the temporary account of another company's order is not found.
  'POST /api/checkout/sandbox/virtual-account': {
    ofA: e(401, 'ok', 404, 403, 403, 403, 403),
    ofB: e(401, 404, 'ok', 403, 403, 403, 403),
  },
  'GET /api/orders': { any: COMPANY },
  // Receipts (issue 17): the paying company and admins; another company's order is "not found".
  'GET /api/orders/:id/receipt.pdf': {
    ofA: e(401, 'ok', 404, 403, 403, 403, 'ok'),
    ofB: e(401, 404, 'ok', 403, 403, 403, 'ok'),
  },

  // company jobs
  'GET /job-api/company/pendingjobs': { any: COMPANY },
  'GET /job-api/company/completedjobs': { any: COMPANY },
  'PUT /job-api/company/editjobdetails/:jobId': {
    ofA: e(401, 'ok', 404, 403, 403, 403, 403),
    ofB: e(401, 404, 'ok', 403, 403, 403, 403),
    ownFile: COMPANY,
    fileOfOther: NOBODY_403_SIGNED_IN,
  },
  'GET /api/company/:id': { ofA: ADMIN },

  // lawyer jobs
  'GET /job-api/jobs': { any: e(401, 403, 403, 'ok', 'ok', 'ok', 'ok') },
  'GET /job-api/job/:id': {
    assignedOfA: e(401, 'ok', 404, 404, 'ok', 404, 'ok'),
    assignedOfB: e(401, 404, 'ok', 404, 404, 'ok', 'ok'),
    openOfA: e(401, 'ok', 404, 'ok', 'ok', 'ok', 'ok'),
  },
  'POST /job-api/applyforjob/:id': {
    openOfA: e(401, 403, 403, 403, 'ok', 'ok', 403),
    assignedOfB: e(401, 403, 403, 403, 409, 409, 403),
  },
  'GET /job-api/lawyer/pendingjobs': { any: LAWYER },
  'GET /job-api/lawyer/completedjobs': { any: LAWYER },
  'GET /job-api/lawyer/earnings': { any: LAWYER },
  'POST /job-api/requestmorejobdetails/:id': {
    assignedOfA: e(401, 403, 403, 404, 'ok', 404, 403),
    assignedOfB: e(401, 403, 403, 404, 404, 'ok', 403),
  },

  // the job workspace (issue 16): the job's company, its assigned lawyer and admins; applicants never
  'GET /job-api/jobs/:id': {
    assignedOfA: e(401, 'ok', 403, 403, 'ok', 403, 'ok'),
    openOfA: e(401, 'ok', 403, 403, 403, 403, 'ok'),
  },
  'GET /job-api/jobs/:id/events': { assignedOfA: e(401, 'ok', 403, 403, 'ok', 403, 'ok') },
  'POST /job-api/jobs/:id/actions/:action': {
    assignedOfA: e(401, 'ok', 403, 403, 'ok', 403, 'ok'),
    assignedOfB: e(401, 403, 'ok', 403, 403, 'ok', 'ok'),
  },
  'POST /job-api/jobs/:id/read': { assignedOfA: e(401, 'ok', 403, 403, 'ok', 403, 'ok') },
  'GET /api/notifications': { any: SIGNED_IN },
  'GET /api/notifications/unread': { any: SIGNED_IN },
  'POST /api/notifications/read': { any: SIGNED_IN },
  'GET /api/admin/holidays': { any: ADMIN },
  'POST /api/admin/holidays': { any: ADMIN },
  'DELETE /api/admin/holidays/:date': { any: ADMIN },
  // money (issue 17)
  'GET /api/admin/ledger': { any: ADMIN },
  'GET /api/admin/ledger.csv': { any: ADMIN },
  'GET /api/admin/money-settings': { any: ADMIN },
  'PUT /api/admin/money-settings': { any: ADMIN },
  'GET /api/admin/refunds': { any: ADMIN },
  // Credit notes of completed refunds: the refunded company and admins; another company's is "not found".
  'GET /api/refunds/:id/credit-note.pdf': {
    ofA: e(401, 'ok', 404, 403, 403, 403, 'ok'),
    ofB: e(401, 404, 'ok', 403, 403, 403, 'ok'),
  },
  'GET /api/refunds': { any: COMPANY },
  // An unknown refund: the admin is told so (the refund flows are in money/refunds.test.ts).
  'POST /api/admin/refunds/:id/retry': { any: e(401, 403, 403, 403, 403, 403, 404) },
  'GET /api/admin/reconciliation': { any: ADMIN },
  // payouts (issue 17; flows in money/payouts.test.ts). A lawyer reaches the rule: nothing is withdrawable yet.
  'GET /api/lawyer/payouts': { any: LAWYER },
  'POST /api/lawyer/payouts': { any: e(401, 403, 403, 400, 400, 400, 403) },
  // A lawyer cancels its own waiting payout (decision 2344); another lawyer's is not found, as an unknown one.
  'POST /api/lawyer/payouts/:id/cancel': { self: LAWYER, ofOther: e(401, 403, 403, 404, 404, 404, 403) },
  'GET /api/admin/payouts': { any: ADMIN },
  // An unknown payout: the admin is told so; lawyers never reach admin routes, their own payouts included.
  'POST /api/admin/payouts/:id/approve': { any: e(401, 403, 403, 403, 403, 403, 404) },
  'POST /api/admin/payouts/approve': { any: e(401, 403, 403, 403, 403, 403, 404) },
  'POST /api/admin/payouts/:id/reject': { any: e(401, 403, 403, 403, 403, 403, 404) },
  'POST /api/admin/payouts/:id/sandbox-outcome': { any: e(401, 403, 403, 403, 403, 403, 404) },
  // Development only, like the mailbox: not registered when NODE_ENV=production.
  'POST /dev/scheduler/tick': { any: PUBLIC },

  // monthly plans (issue 19; flows in plans/plans.test.ts). Companies A and B have no plan here: the
  // plan page's actions reach the rule and are told so (404); confirming an unpaid payment is a 400.
  'POST /api/plans/subscribe': { any: COMPANY },
  'POST /api/plans/confirm': {
    ofA: e(401, 400, 403, 403, 403, 403, 403),
    ofB: e(401, 403, 400, 403, 403, 403, 403),
  },
  'GET /api/plans/mine': { any: COMPANY },
  'POST /api/plans/mine/tier': { any: e(401, 404, 404, 403, 403, 403, 403) },
  'POST /api/plans/mine/cancel': { any: e(401, 404, 404, 403, 403, 403, 403) },
  'POST /api/plans/mine/requests': { any: e(401, 404, 404, 403, 403, 403, 403) },
  'GET /api/admin/subscribers': { any: ADMIN },

  // lawyer payout details
  'GET /api/lawyer/:id': { any: ADMIN },
  'GET /api/get-payment-details': { any: LAWYER },
  'POST /api/add-payment-details': { self: LAWYER, ofOther: e(401, 403, 403, 403, 403, 403, 403) },
  'POST /api/send-otp': { any: LAWYER },
  'POST /api/confirm-otp': { any: LAWYER },
  'PATCH /api/edit-payment-details': { self: LAWYER, ofOther: e(401, 403, 403, 403, 403, 403, 403) },

  // admin
  'GET /api/admin/dashboard': { any: ADMIN },
  'GET /api/admin/audit-log': { any: ADMIN },
  'GET /api/companys': { any: ADMIN },
  'GET /api/verifiedlawyers': { any: ADMIN },
  'GET /api/unverifiedlawyers': { any: ADMIN },
  'PATCH /api/verifylawyer/:id': { any: ADMIN },
  'POST /api/rejectlawyer/:id': { any: ADMIN },
  'GET /api/admin/payments': { any: ADMIN },
  'GET /api/admin/settlement-account': { any: ADMIN },
  'PUT /api/admin/settlement-account': { any: ADMIN },
  'GET /job-api/unassign': { any: ADMIN },
  'GET /job-api/pendingjobs': { any: ADMIN },
  'GET /job-api/completedjobs': { any: ADMIN },
  'GET /job-api/admin/job/:id': { openOfA: ADMIN },
  'POST /job-api/assign': { any: ADMIN },
  'PUT /job-api/completejob/:id': { any: ADMIN },
  'PUT /job-api/editjobdetails/:id': { openOfA: ADMIN, adminFile: ADMIN, fileOfCompany: NOBODY_403_SIGNED_IN },
};

/** The actor a route is exercised as when only one is wanted (bad-input tests): the first allowed. */
export function allowedActor(key: string): Actor {
  const row = Object.values(TABLE[key.replace(/^HEAD /, 'GET ')] ?? {})[0];
  return (row && (ACTORS.find((a) => row[a] === 'ok') ?? ACTORS.find((a) => row[a] === 400))) ?? 'guest';
}
