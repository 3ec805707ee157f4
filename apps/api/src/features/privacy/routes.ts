import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  accountExportQuery,
  deleteAccountInput,
  deleteAccountResponse,
  deletionCheckResponse,
  privacyMessages,
  TWO_FACTOR,
  twoFactorMessages,
} from '@legalmarket/contracts';
import type { FeatureOptions } from '../shared.js';
import { forbidden } from '../../platform/errors.js';

const tags = ['privacy'];
const security = [{ bearer: [] }];

/** The data protection rights of NDPA 2023 (decision 2030): every signed-in user, on their own account only. */
export const privacyRoutes: FastifyPluginAsyncZod<FeatureOptions> = async (app, { shared, services }) => {
  const { auth, limits } = shared;
  const { privacy } = services;
  /** Deleting the account cannot be undone: an enrolled session proves a fresh code (decision 2180). */
  const recentCode = services.twoFactor.requireRecentCode;

  app.get(
    '/api/account/export',
    {
      schema: {
        tags,
        summary: 'Download all my data as one zip archive',
        description:
          "Companies, lawyers and admins: a zip with README.txt, profile.json, jobs.json (each job the caller took part in with its whole thread: the other party's messages are the job's, named by role, never their contact details), job-actions.json (what the caller wrote or did on jobs jobs.json does not hold: a job handed to another lawyer, an admin's messages; their own entries only), orders.json, plans.json (plans and their payments, without the card token), plan-events.json (each plan's timeline with its notes), refunds.json, reviews.json and cart.json (companies), payouts.json and applications.json (lawyers), admin-actions.json (admins), notifications.json, files.json and files/ with every file the caller uploaded. Streamed: files are read from storage a chunk at a time. `_id`, when sent, must be the caller's own id: nobody, admins included, downloads another person's data (403). At most 5 archives per account per 15 minutes (429).",
        querystring: accountExportQuery,
        produces: ['application/zip'],
        security,
      },
      preHandler: auth.require(),
    },
    async (request, reply) => {
      const user = request.user!;
      if (request.query._id && request.query._id !== user.id) {
        shared.securityLog('data_export_refused', { actor: user.id, target: request.query._id });
        throw forbidden(privacyMessages.exportOthersRefused);
      }
      // By account id: counted by address, the count would start again after an address change.
      await limits.perAccountAction('data-export', user.id);
      const { filename, stream } = await privacy.exportArchive(user);
      return reply
        .header('content-type', 'application/zip')
        .header('content-disposition', `attachment; filename="${filename}"`)
        .header('cache-control', 'no-store')
        .send(stream);
    },
  );

  app.get(
    '/api/account/deletion',
    {
      schema: {
        tags,
        summary: 'Whether my account can be deleted now, and what blocks it',
        description:
          "Each blocker is named: an open job (not completed or cancelled), a lawyer's earnings not yet paid out or a payout still processing, a company's refund not yet received or a payment started in the last 24 hours, the only admin.",
        response: { 200: deletionCheckResponse },
        security,
      },
      preHandler: auth.require(),
    },
    async (request) => {
      const blockers = await privacy.blockers(request.user!);
      return { status: 'success' as const, data: { canDelete: blockers.length === 0, blockers } };
    },
  );

  app.post(
    '/api/account/delete',
    {
      schema: {
        tags,
        summary: 'Delete my account (asks for my password)',
        description: `Checks the password (403 when wrong; 5 tries per account per 15 minutes, and each counts with the login tries, then 429), then in one transaction: refuses with 409 naming every blocker (see GET /api/account/deletion), or erases the name, e-mails, phone, addresses, registration numbers, picture, payout bank details, cart, reviews, a lawyer's replies to its reviews (decision 2276), notifications, codes and the files no other party needs, keeps orders, receipts (billed to "Account deleted"), jobs and their threads, payout records and the ledger without the name, ends every session and frees the e-mail address for a new sign-up. Audited as account.delete. An account with two-factor on must have entered an authenticator code in this session within the last ${TWO_FACTOR.stepUpMinutes} minutes, else 428 "${twoFactorMessages.stepUpRequired}" before the password is looked at (send a code to POST /api/two-factor/verify, then repeat; decision 2180).`,
        body: deleteAccountInput,
        response: { 200: deleteAccountResponse },
        security,
      },
      preHandler: [auth.require(), recentCode],
    },
    async (request) => {
      const user = request.user!;
      // By account id, as the export's: an address change must not restart the count.
      await limits.perAccountAction('delete-account', user.id);
      // A password guess from a session counts with the login tries, as an e-mail change's does (0212).
      await limits.claimLoginAttempt(user.officialEmail);
      await privacy.deleteAccount(user, request.body.password, () => limits.loginSucceeded(user.officialEmail));
      return { status: 'success' as const, message: privacyMessages.accountDeleted };
    },
  );
};
