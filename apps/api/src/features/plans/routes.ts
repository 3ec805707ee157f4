import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  changeTierInput,
  myPlanResponse,
  planResponse,
  planConfirmInput,
  planMessages,
  planRequestInput,
  planRequestResponse,
  subscribeInput,
  subscribeResponse,
  subscribersQuery,
  subscribersResponse,
  TWO_FACTOR,
  twoFactorMessages,
} from '@legalmarket/contracts';
import type { FeatureOptions } from '../shared.js';

const tags = ['plans'];

/** Monthly plans (issue 19, decision 1900): subscribe, the plan page's actions, the admin's subscribers. */
export const plansRoutes: FastifyPluginAsyncZod<FeatureOptions> = async (app, { shared, services }) => {
  const { plans } = services;
  const companyOnly = shared.auth.require('company');

  app.post(
    '/api/plans/subscribe',
    {
      schema: {
        tags,
        summary: 'Start a monthly plan',
        description:
          "Company only. `tier` bronze, silver or gold. Makes the tier's payment plan at the provider (Flutterwave: POST /v3/payment-plans, interval monthly) the first time, and a pending first payment; answers what the payment dialog needs, with `paymentPlan` so the charge is made on the tier's monthly payment plan and `paymentOptions` `card` (Flutterwave's payment plans recur on cards only; decision 2190). The payment is made under the company's lock in one transaction: starts sent together (a double click, two tabs) see one another, and a start of the same tier within 2 minutes of the last (before the background pass asks the provider about it) answers the same `reference` again; another tier gets a reference of its own, and each reference buys only its own tier at its own price. The plan starts when POST /api/plans/confirm (or the provider's webhook) verifies the payment; the subscription that charge makes at the provider is then cancelled by the scheduler, which charges each renewal itself (decision 1900), so a month is never charged twice. 409 when the company already has an active plan (one per company; change its tier instead).",
        body: subscribeInput,
        response: { 200: subscribeResponse },
      },
      preHandler: companyOnly,
    },
    async (request) => ({
      status: 'success' as const,
      message: planMessages.subscribeStarted,
      data: await plans.subscribe(request.user!, request.body.tier),
    }),
  );

  app.post(
    '/api/plans/confirm',
    {
      schema: {
        tags,
        summary: 'Confirm the first plan payment',
        description:
          "Company only. The server asks the provider about the transaction (by `transactionId`, else by `reference`) and starts the plan only for a successful NGN payment of exactly the tier's price for this reference: the month's credits, the discount and the renewal date a month on. Repeating it is harmless. 400 for a failed or mismatched payment (logged as `plan_payment_mismatch`, and the provider subscription its charge made is cancelled; a successful NGN payment of the wrong amount is refunded whole by itself, once, decision 2262), 403 for another company's, 404 for an unknown reference, 409 while the provider reports it pending, or when another plan is already active or this reference was already paid by another transaction (the window paid twice: that payment buys nothing, is logged as `plan_paid_twice` and refunded whole by itself, once per transaction, decision 2262, and its provider subscription is cancelled). A payment refunded so never starts a plan later (409 once the live plan has ended too). Such a refund is listed in GET /api/refunds and GET /api/admin/refunds with `orderId: null` and mailed with a credit note when completed.",
        body: planConfirmInput,
        response: { 200: planResponse },
      },
      preHandler: companyOnly,
    },
    async (request) => ({
      status: 'success' as const,
      message: planMessages.subscribed,
      data: await plans.confirm(request.user!, request.body.reference, request.body.transactionId),
    }),
  );

  app.get(
    '/api/plans/mine',
    {
      schema: {
        tags,
        summary: "The company's plan",
        description:
          'Company only. The live plan (else the last one; null when none): tier, status (active, grace, ended, lapsed), renewal date, credits left and used this month, what the tier includes, a pending tier change, whether it is cancelled, its timeline and the jobs its credits opened. Credits reset at each renewal; unused ones do not carry over.',
        response: { 200: myPlanResponse },
      },
      preHandler: companyOnly,
    },
    async (request) => ({ status: 'success' as const, data: await plans.mine(request.user!) }),
  );

  app.post(
    '/api/plans/mine/tier',
    {
      schema: {
        tags,
        summary: 'Upgrade or downgrade from the next renewal',
        description: `Company only. \`tier\` takes effect at the next renewal (that renewal is charged at its price and gives its credits); the current tier clears a pending change. The renewal charges the saved card with nobody present, so a change that raises what it charges (an upgrade, or undoing a pending downgrade) answers ${TWO_FACTOR.stepUpStatus} "${twoFactorMessages.stepUpRequired}" first when the company has two-factor on and this session's last code is older than ${TWO_FACTOR.stepUpMinutes} minutes, and nothing changes; a downgrade does not ask (decisions 2020 and 2283). 404 without an active plan, 409 when the plan is cancelled.`,
        body: changeTierInput,
        response: { 200: planResponse },
      },
      preHandler: companyOnly,
    },
    async (request) => {
      const { message, plan } = await plans.changeTier(request.user!, request.body.tier);
      return { status: 'success' as const, message, data: plan };
    },
  );

  app.post(
    '/api/plans/mine/cancel',
    {
      schema: {
        tags,
        summary: 'Cancel the plan at the end of the paid month',
        description:
          "Company only, no payload. Stops renewal (the provider's subscription is cancelled too: PUT /v3/subscriptions/{id}/cancel, as it already is after every plan payment); the month paid for stays with its credits and discount until the renewal date, when the plan ends. 404 without an active plan, 409 when already cancelled.",
        response: { 200: planResponse },
      },
      preHandler: companyOnly,
    },
    async (request) => ({
      status: 'success' as const,
      message: planMessages.cancelled,
      data: await plans.cancel(request.user!),
    }),
  );

  app.post(
    '/api/plans/mine/requests',
    {
      schema: {
        tags,
        summary: 'Spend a credit: request the work a plan includes',
        description:
          "Company only. `kind` review, draft, opinion or policy; optional `detail`, `file` (a URL answered by POST /api/uploads to this company) and `fileName`, as on a product page. Takes one credit of that kind and opens a job with ₦0 to pay in the job workspace, named after the plan, in one transaction under the company's lock (two requests for the last credit open one job). Optional `key` (8 to 64 letters, digits, - or _), made by the client once for each piece of work: the same request sent again with it (a double click, a retry after a lost answer, at once or later) spends no second credit and answers 201 with the job it opened, even once the credits or the month are gone; the same key with another `kind`, `detail`, `file` or `fileName` answers 422; keys are the company's own (decision 2191). Without a key every request spends a credit. 404 without an active plan, 409 when no credit of that kind is left this month or the paid month is over. An admin cancelling such a job gives the credit back while its plan month lasts (POST /job-api/jobs/{id}/actions/cancel).",
        body: planRequestInput,
        response: { 201: planRequestResponse },
      },
      preHandler: companyOnly,
    },
    async (request, reply) => {
      const data = await plans.request(request.user!, request.body);
      return reply.status(201).send({ status: 'success', message: planMessages.requestCreated, data });
    },
  );

  app.get(
    '/api/admin/subscribers',
    {
      schema: {
        tags,
        summary: 'Subscribers (admin)',
        description:
          'Admin only. Every plan, newest first (500 at most), optionally by `status`: company, tier, status, renewal date, a pending tier change, whether it is cancelled, and the credits used this month against what the tier includes.',
        querystring: subscribersQuery,
        response: { 200: subscribersResponse },
      },
      preHandler: shared.auth.require('admin'),
    },
    async (request) => ({ status: 'success' as const, data: await plans.subscribers(request.query.status) }),
  );
};
