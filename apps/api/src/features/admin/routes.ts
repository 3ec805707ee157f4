import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  auditLogQuery,
  auditLogResponse,
  companiesResponse,
  dashboardResponse,
  idParam,
  LIST_CAP,
  LIST_LIMIT_MAX,
  listPaging,
  listQuery,
  lawyersResponse,
  messages,
  paymentsResponse,
  paymentsQuery,
  settlementAccountResponse,
  settlementAccountInput,
  verifyLawyerResponse,
  verifyLawyerInput,
  rejectLawyerInput,
} from '@legalmarket/contracts';
import type { FeatureOptions } from '../shared.js';

const tags = ['admin'];
const security = [{ bearer: [] }];
const ADMIN_ONLY = 'Admins only: guests get 401, companies and lawyers 403.';
const PAGING =
  'Paged on the server: `page` (from 1) and `limit` (default 5, at most 100); the answer carries `total` (every match), `page`, `limit` and `results` (items on this page).';

const LISTED = `Without \`page\`: the whole list, up to \`limit\` items (default ${LIST_CAP}, at most ${LIST_LIMIT_MAX}); with \`page\` (from 1): that page of \`limit\` items (default 5). Either way the answer carries \`total\` (every match), \`page\`, \`limit\` and \`results\` (items answered). Decision 0901.`;

const pageOf = <T>(items: T[], total: number, q: { page: number; limit: number }) => ({
  status: 'success' as const,
  page: q.page,
  limit: q.limit,
  total,
  results: items.length,
});

/** Dashboard counts, companies, lawyers, verification, payments ledger, settlement account, audit log. */
export const adminRoutes: FastifyPluginAsyncZod<FeatureOptions> = async (app, { shared, services }) => {
  const admin = services.admin;
  const onlyAdmin = shared.auth.require('admin');
  /** Actions on money ask for a fresh authenticator code (decision 2020). */
  const recentCode = services.twoFactor.requireRecentCode;

  app.get(
    '/api/admin/dashboard',
    {
      schema: {
        tags,
        security,
        summary: 'Dashboard counts and the latest audit-log entries',
        description: `Live counts for the dashboard tiles (open = unassigned jobs; payments = paid orders) and the 8 latest admin actions. ${ADMIN_ONLY}`,
        response: { 200: dashboardResponse },
      },
      preHandler: onlyAdmin,
    },
    async () => ({ status: 'success' as const, data: await admin.dashboard() }),
  );

  app.get(
    '/api/admin/audit-log',
    {
      schema: {
        tags,
        security,
        summary: 'Audit log, newest first, with filters',
        description: `Who did what and when: lawyer verification, job assignment, completion and details, product and review actions, settlement account and money settings changes, two-factor changes. Filters (all optional, combined): \`actor\` (an account id, or part of a name or e-mail), \`action\` (e.g. job.assign), \`targetType\` and \`targetId\` (the object named), \`from\`/\`to\` (YYYY-MM-DD, UTC, inclusive); \`total\` counts the matches. Decision 2021. ${PAGING} ${ADMIN_ONLY}`,
        querystring: auditLogQuery,
        response: { 200: auditLogResponse },
      },
      preHandler: onlyAdmin,
    },
    async (request) => {
      const { entries, total } = await admin.auditLog(request.query);
      return { ...pageOf(entries, total, request.query), data: { entries } };
    },
  );

  app.get(
    '/api/companys',
    {
      schema: {
        tags,
        security,
        summary: 'Companies (admin Clients list)',
        description: `Newest first, in \`company\` at the top of the body and in \`data.company\` (the spec's table answers \`data.company list\`; decision 2234). ${LISTED} ${ADMIN_ONLY}`,
        querystring: listQuery,
        response: { 200: companiesResponse },
      },
      preHandler: onlyAdmin,
    },
    async (request) => {
      const q = listPaging(request.query);
      const { items, total } = await admin.companies(q);
      return { ...pageOf(items, total, q), company: items, data: { company: items } };
    },
  );

  for (const [url, verified] of [
    ['/api/verifiedlawyers', true],
    ['/api/unverifiedlawyers', false],
  ] as const) {
    app.get(
      url,
      {
        schema: {
          tags,
          security,
          summary: verified ? 'Verified lawyers' : 'Unverified lawyers',
          description: `Newest first, in \`lawyers\` at the top of the body and in \`data.lawyers\` (the spec's table answers \`data.lawyers\`; decision 2234). ${LISTED} ${ADMIN_ONLY}`,
          querystring: listQuery,
          response: { 200: lawyersResponse },
        },
        preHandler: onlyAdmin,
      },
      async (request) => {
        const q = listPaging(request.query);
        const { items, total } = await admin.lawyers(verified, q);
        return { ...pageOf(items, total, q), lawyers: items, data: { lawyers: items } };
      },
    );
  }

  app.patch(
    '/api/verifylawyer/:id',
    {
      schema: {
        tags,
        security,
        summary: 'Verify a lawyer (or withdraw the verification)',
        description: `\`{ verified: true }\` verifies the lawyer and e-mails them ("Verification Successful"). \`{ verified: false }\` withdraws it: the lawyer is logged out everywhere and e-mailed ("Verification revoked"); jobs already assigned stay assigned: the lawyer reads them but acts on none (403) until verified again, and an admin may assign them to another lawyer (decision 2310). The texts \`"true"\` and \`"false"\` are read as the booleans (decision 2234). Repeating a call changes nothing. Audit-logged. 404 when the id is not a lawyer or the lawyer deleted the account. ${ADMIN_ONLY}`,
        params: idParam,
        body: verifyLawyerInput,
        response: { 200: verifyLawyerResponse },
      },
      preHandler: onlyAdmin,
    },
    async (request) => {
      const { lawyer } = await admin.setVerified(request.user!.id, request.params.id, request.body.verified);
      return {
        status: 'success' as const,
        message: request.body.verified ? messages.verificationSuccessful : messages.verificationRevoked,
        data: { lawyer },
      };
    },
  );

  app.post(
    '/api/rejectlawyer/:id',
    {
      schema: {
        tags,
        security,
        summary: "Reject a lawyer's verification, with a reason",
        description: `\`{ reason }\` (10 to 1000 characters, trimmed) refuses an unverified lawyer's verification: the lawyer stays unverified, is e-mailed the reason as written with a link to update their profile, and the lawyer's \`verificationRejection\` (\`{ reason, rejectedAt }\`) holds it until the lawyer next changes the profile or is verified. The reason that already stands, sent again, changes nothing and sends no second mail. 409 when the lawyer is verified (withdraw the verification with PATCH /api/verifylawyer/{id} instead); 404 when the id is not a lawyer or the lawyer deleted the account. Audit-logged (\`lawyer.reject\`, with the reason). Decisions 1820, 1860. ${ADMIN_ONLY}`,
        params: idParam,
        body: rejectLawyerInput,
        response: { 200: verifyLawyerResponse },
      },
      preHandler: onlyAdmin,
    },
    async (request) => {
      const { lawyer } = await admin.rejectVerification(request.user!.id, request.params.id, request.body.reason);
      return { status: 'success' as const, message: messages.verificationRejected, data: { lawyer } };
    },
  );

  app.get(
    '/api/admin/payments',
    {
      schema: {
        tags,
        security,
        summary: 'Payments ledger (orders)',
        description: `Orders with company, reference (tx_ref), provider, amount (naira), status and dates, newest first. \`from\`/\`to\` (YYYY-MM-DD, UTC, inclusive) choose the period by creation date; \`status\` narrows the list. \`data.totals\` sums every order of the period per status (not only this page). ${PAGING} ${ADMIN_ONLY}`,
        querystring: paymentsQuery,
        response: { 200: paymentsResponse },
      },
      preHandler: onlyAdmin,
    },
    async (request) => {
      const { items, total, totals } = await admin.payments(request.query);
      return { ...pageOf(items, total, request.query), data: { payments: items, totals } };
    },
  );

  app.get(
    '/api/admin/settlement-account',
    {
      schema: {
        tags,
        security,
        summary: "The platform's settlement account",
        description: `Account number, account name and bank the marketplace settles into; \`data.account\` is null until an admin saves one. ${ADMIN_ONLY}`,
        response: { 200: settlementAccountResponse },
      },
      preHandler: onlyAdmin,
    },
    async () => ({ status: 'success' as const, message: 'ok', data: { account: await admin.settlementAccount() } }),
  );

  app.put(
    '/api/admin/settlement-account',
    {
      schema: {
        tags,
        security,
        summary: "Save the platform's settlement account",
        description: `10-digit NUBAN account number, account name and bank. Audit-logged with the account number masked; saving the same values again records nothing. ${ADMIN_ONLY}`,
        body: settlementAccountInput,
        response: { 200: settlementAccountResponse },
      },
      preHandler: [onlyAdmin, recentCode],
    },
    async (request) => {
      const account = await admin.saveSettlementAccount(request.user!.id, request.body);
      return { status: 'success' as const, message: messages.settlementAccountSaved, data: { account } };
    },
  );
};
