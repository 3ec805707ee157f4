import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  adminPayoutsQuery,
  adminPayoutsResponse,
  approvePayoutsInput,
  approvePayoutsResponse,
  cancelPayoutInput,
  IDEMPOTENCY_KEY_HEADER,
  idempotencyKey,
  lawyerPayoutsResponse,
  MIN_PAYOUT,
  PAYOUT_BATCH_MAX,
  payoutMessages,
  payoutRequestInput,
  payoutResponse,
  rejectPayoutInput,
  sandboxTransferOutcomeInput,
} from '@legalmarket/contracts';
import { badRequest } from '../../platform/errors.js';
import type { FeatureOptions } from '../shared.js';

const tags = ['payouts'];
const security = [{ bearer: [] }];
/** Ids are checked by the service (an unknown or malformed one is simply not found). */
const payoutIdParam = z.object({ id: z.string().max(64) });

/** Lawyer withdrawals and the admin's approvals (issue 17; docs/decisions/1710-lawyer-payouts.md). */
export const payoutRoutes: FastifyPluginAsyncZod<FeatureOptions> = async (app, { shared, services }) => {
  const { payouts } = services;
  const lawyerOnly = shared.auth.require('lawyer');
  const adminOnly = shared.auth.require('admin');
  /** Actions on money ask for a fresh authenticator code (decision 2020). */
  const recentCode = services.twoFactor.requireRecentCode;

  app.get(
    '/api/lawyer/payouts',
    {
      schema: {
        tags,
        summary: "The signed-in lawyer's withdrawals and what it may withdraw now",
        description:
          '`withdrawable`: the available share (past its holding period) less withdrawals still waiting for approval, in naira. `detailsResolved`: whether the saved payout details were checked with the bank (a withdrawal needs it; re-submit the same details to check them). `payouts`: the latest 100, waiting ones first.',
        response: { 200: lawyerPayoutsResponse },
        security,
      },
      preHandler: lawyerOnly,
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return { status: 'success' as const, ...(await payouts.forLawyer(_request.user!.id)) };
    },
  );

  app.post(
    '/api/lawyer/payouts',
    {
      schema: {
        tags,
        summary: 'Ask for a withdrawal of the available balance',
        description: `Body \`{ "amount": 25000 }\` in naira (whole kobo), or no amount for everything withdrawable. An optional \`Idempotency-Key\` header (a uuid the client makes for one withdrawal) asks once: sent again with it, the request answers 201 with the payout it made, as it is now (422 if the amount differs; decision 2241). Goes to the saved payout details, which must have been checked with the bank. The amount is reserved at once (two requests cannot take the same money) and paid after an admin approves. 400 with the reason: no details, details not checked, nothing available, more than is withdrawable, less than ₦${MIN_PAYOUT}. Admins are e-mailed.`,
        body: payoutRequestInput,
        response: { 201: payoutResponse },
        security,
      },
      preHandler: lawyerOnly,
    },
    async (request, reply) => {
      const key = idempotencyKey.safeParse(request.headers[IDEMPOTENCY_KEY_HEADER]);
      if (!key.success) throw badRequest(key.error.issues[0].message);
      return reply.status(201).send({
        status: 'success' as const,
        message: payoutMessages.requested,
        payout: await payouts.request(request.user!, request.body?.amount, key.data),
      });
    },
  );

  app.post(
    '/api/lawyer/payouts/:id/cancel',
    {
      schema: {
        tags,
        summary: 'Cancel one of your withdrawals while it still waits for approval',
        description:
          'No body. Only a payout still `requested` can be cancelled: it becomes `rejected` with `cancelled: true` (the reason in `failure`) under its row lock, the lock an approval takes, so of a cancel and an approval at the same moment exactly one wins. Nothing was sent or posted to the ledger, so its amount is withdrawable again at once; the lawyer is e-mailed. Cancelling it again answers it as it is. 409 when it was already approved (sending, paid or failed) or rejected by an admin; 404 for an unknown payout or another lawyer’s (decision 2344).',
        params: payoutIdParam,
        body: cancelPayoutInput,
        response: { 200: payoutResponse },
        security,
      },
      preHandler: lawyerOnly,
    },
    async (request) => ({
      status: 'success' as const,
      message: payoutMessages.cancelled,
      payout: await payouts.cancel(request.user!, request.params.id),
    }),
  );

  app.get(
    '/api/admin/payouts',
    {
      schema: {
        tags,
        summary: 'Payouts: those waiting for approval first, then the latest others',
        description:
          '`status` filters (requested, sending, paid, failed, rejected). `waitingTotal`: the naira waiting for approval. Account numbers are masked.',
        querystring: adminPayoutsQuery,
        response: { 200: adminPayoutsResponse },
        security,
      },
      preHandler: adminOnly,
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return { status: 'success' as const, ...(await payouts.list(request.query.status)) };
    },
  );

  app.post(
    '/api/admin/payouts/:id/approve',
    {
      schema: {
        tags,
        summary: 'Approve one payout: the money is posted and sent by a Flutterwave transfer',
        description:
          'Exactly once: the payout is approved and posted under its row lock, and only that approval sends the transfer (reference = the payout id). Approving it again, or at the same moment as another approval, answers the payout as it is and moves nothing. The answer shows `sending` until the provider completes it (`paid`) or fails it (`failed`, the money back in the lawyer’s available balance). 404 for an unknown payout; 409 when the lawyer’s balance no longer covers it or an admin rejected it, also while this approval waited for its lock.',
        params: payoutIdParam,
        body: z.object({}).nullish(),
        response: { 200: payoutResponse },
        security,
      },
      preHandler: [adminOnly, recentCode],
    },
    async (request) => {
      const payout = await payouts.approve(request.user!, request.params.id);
      return { status: 'success' as const, message: payoutMessages.approved, payout };
    },
  );

  app.post(
    '/api/admin/payouts/approve',
    {
      schema: {
        tags,
        summary: 'Approve a batch of payouts',
        description: `Body \`{ "ids": [...] }\`, 1 to ${PAYOUT_BATCH_MAX} payout ids, approved all or nothing (decision 2295): in one transaction each payout still waiting is approved and posted, and after the commit each is sent exactly once as with one approval; those already approved are answered as they are. \`payouts\`: each payout as it is then, in the order of \`ids\` (a repeated id once). 404 when any id is unknown; 409 when any payout was rejected or its lawyer's available balance no longer covers it, the message naming each such payout (lawyer, amount, id) and why. Either way nothing is approved and nothing is sent: leave those payouts out and send the batch again.`,
        body: approvePayoutsInput,
        response: { 200: approvePayoutsResponse },
        security,
      },
      preHandler: [adminOnly, recentCode],
    },
    async (request) => {
      const done = await payouts.approveBatch(request.user!, request.body.ids);
      return {
        status: 'success' as const,
        message: payoutMessages.batchApproved(done.approved),
        payouts: done.payouts,
      };
    },
  );

  app.post(
    '/api/admin/payouts/:id/reject',
    {
      schema: {
        tags,
        summary: 'Reject a payout request before it is sent, with a reason',
        description:
          'Body `{ "reason": "..." }` (3 to 500 characters), told to the lawyer by e-mail. Only a payout still `requested` can be rejected: it becomes `rejected` (the reason in `failure`) under its row lock, so of a rejection and an approval at the same moment exactly one wins. A request was never posted to the ledger (it only reserved its amount), so its amount is withdrawable again at once and no ledger entry is needed. Rejecting it again answers it as it is; 409 when it was already approved (sending, paid or failed); 404 for an unknown payout. Approving a rejected payout answers 409.',
        params: payoutIdParam,
        body: rejectPayoutInput,
        response: { 200: payoutResponse },
        security,
      },
      preHandler: [adminOnly, recentCode],
    },
    async (request) => ({
      status: 'success' as const,
      message: payoutMessages.rejected,
      payout: await payouts.reject(request.user!, request.params.id, request.body.reason),
    }),
  );

  if (services.paymentProvider.name === 'sandbox') {
    app.post(
      '/api/admin/payouts/:id/sandbox-outcome',
      {
        schema: {
          tags,
          summary: 'Sandbox provider only: finish a transfer the sandbox left pending',
          description:
            'The sandbox bank completes transfers at once, except to account numbers ending in 1111 (they fail) and 2222 (they stay pending until this call says SUCCESSFUL or FAILED, as Flutterwave’s transfer webhook would). 409 when the payout is not being sent through the sandbox.',
          params: payoutIdParam,
          body: sandboxTransferOutcomeInput,
          response: { 200: payoutResponse },
          security,
        },
        preHandler: adminOnly,
      },
      async (request) => ({
        status: 'success' as const,
        message: payoutMessages.sandboxFinished,
        payout: await payouts.finishOnSandbox(request.params.id, request.body.status),
      }),
    );
  }
};
