import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  companyRefundsResponse,
  ledgerQuery,
  ledgerResponse,
  moneySettings,
  moneySettingsResponse,
  reconciliationQuery,
  reconciliationResponse,
  refundView,
  refundsResponse,
} from '@legalmarket/contracts';
import type { FastifyReply } from 'fastify';
import type { FeatureOptions } from '../shared.js';
import type { PdfFile } from './receipts.js';

const tags = ['money'];
const security = [{ bearer: [] }];
const idParams = z.object({ id: z.string().max(64, 'id is too long') });

/** A receipt or credit note: always downloaded, never kept by a cache on the way. */
const sendPdf = (reply: FastifyReply, file: PdfFile) =>
  reply
    .header('content-type', 'application/pdf')
    .header('content-length', file.content.length)
    .header('content-disposition', `attachment; filename="${file.filename}"`)
    .header('cache-control', 'private, no-store')
    .header('x-content-type-options', 'nosniff')
    .send(file.content);

/** The admin's view of the one ledger and the money settings (issue 17). */
export const moneyRoutes: FastifyPluginAsyncZod<FeatureOptions> = async (app, { shared, services }) => {
  const { ledger, refunds, receipts, reconciliation } = services;
  const onlyAdmin = shared.auth.require('admin');
  /** Actions on money ask for a fresh authenticator code (decision 2020). */
  const recentCode = services.twoFactor.requireRecentCode;
  const companyOrAdmin = shared.auth.require('company', 'admin');

  app.get(
    '/api/orders/:id/receipt.pdf',
    {
      schema: {
        tags,
        summary: 'The receipt of a paid order (PDF)',
        description:
          'The order number, date, the company billed (as it was at payment), each line with quantity and price, the VAT included (7.5 %, "Tax (incl)"), the total in naira, the payment reference and method. The company that paid, or an admin. Another company’s order answers 404 like an unknown one; an order not paid 409. The same order always gives the same file. Also attached to the payment confirmation e-mail.',
        params: idParams,
        produces: ['application/pdf'],
        security,
      },
      preHandler: companyOrAdmin,
    },
    async (request, reply) => sendPdf(reply, await receipts.receipt(request.user!, request.params.id)),
  );

  app.get(
    '/api/refunds/:id/credit-note.pdf',
    {
      schema: {
        tags,
        summary: 'The credit note of a completed refund (PDF)',
        description:
          'Refers to the order’s receipt; the refunded amount with the VAT it includes. The refunded company, or an admin. Another company’s refund answers 404 like an unknown one; a refund not completed 409. Also attached to the refund e-mail.',
        params: idParams,
        produces: ['application/pdf'],
        security,
      },
      preHandler: companyOrAdmin,
    },
    async (request, reply) => sendPdf(reply, await receipts.creditNote(request.user!, request.params.id)),
  );

  app.get(
    '/api/refunds',
    {
      schema: {
        tags,
        summary: "The company's completed refunds, newest first (the latest 200), each with a credit note",
        description:
          "Refunds of cancelled jobs, and of money a payment paid for nothing (a second payment of an order already paid, a payment after its order closed, lines another order already bought; decision 2250), whose `productName` is the order's title, and of a monthly plan's payment that paid nothing (a plan paid twice, a renewal charge that paid no month, a first payment of the wrong amount; decision 2262), with `orderId` null, the payment's reference and `productName` \"Monthly plan payment\".",
        response: { 200: companyRefundsResponse },
        security,
      },
      preHandler: shared.auth.require('company'),
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return { status: 'success' as const, refunds: await receipts.companyRefunds(request.user!.id) };
    },
  );

  app.get(
    '/api/admin/ledger',
    {
      schema: {
        tags,
        summary: 'The ledger: every movement of money, newest first, with the balances it adds up to',
        description:
          'Filters: `from` and `to` (Lagos days, YYYY-MM-DD, inclusive), `kind`, `companyId`, `lawyerId`; `page` and `limit` (at most 200). Kinds include `fee`: what a payment left short of its amount at the provider (the fee the platform bore: Flutterwave’s `amount` less `amount_settled`, none when the customer paid `app_fee` on top, decision 2348) or what a transfer cost (`fee`), debit `provider_fees`, credit `provider_cash`. Each transaction’s entries sum to zero; amounts are naira, debits positive. `balances` are over the whole ledger, not the filter (`providerFees`: the fees paid so far).',
        querystring: ledgerQuery,
        response: { 200: ledgerResponse },
        security,
      },
      preHandler: onlyAdmin,
    },
    async (request, reply) => {
      const [page, balances] = await Promise.all([ledger.list(request.query), ledger.balances()]);
      reply.header('cache-control', 'no-store');
      return { status: 'success' as const, ...page, balances };
    },
  );

  app.get(
    '/api/admin/ledger.csv',
    {
      schema: {
        tags,
        summary: 'The ledger as CSV, one row per entry, with the same filters',
        querystring: ledgerQuery.omit({ page: true, limit: true }),
        produces: ['text/csv'],
        security,
      },
      preHandler: onlyAdmin,
    },
    async (request, reply) => {
      const body = await ledger.csv({ ...request.query, page: 1, limit: 1 });
      reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="ledger.csv"')
        .header('cache-control', 'no-store');
      return body;
    },
  );

  app.get(
    '/api/admin/money-settings',
    {
      schema: {
        tags,
        summary: 'The platform commission (percent of each completed job) and the holding period in days',
        response: { 200: moneySettingsResponse },
        security,
      },
      preHandler: onlyAdmin,
    },
    async () => ({ status: 'success' as const, settings: await ledger.settings() }),
  );

  app.put(
    '/api/admin/money-settings',
    {
      schema: {
        tags,
        summary: 'Change the commission and holding period',
        description: 'Applies to jobs completed from now on; earnings already posted keep their figures.',
        body: moneySettings,
        response: { 200: moneySettingsResponse },
        security,
      },
      preHandler: [onlyAdmin, recentCode],
    },
    async (request) => ({
      status: 'success' as const,
      settings: await ledger.saveSettings(request.user!.id, request.body),
    }),
  );

  app.get(
    '/api/admin/refunds',
    {
      schema: {
        tags,
        summary:
          'Refunds of cancelled jobs and of money payments paid for nothing, newest first (the latest 200, and every failed one; up to 1,000)',
        description:
          "A refund is opened when an admin cancels a paid job (POST /job-api/jobs/{id}/actions/cancel with `refund`), sent to the provider after the cancellation commits, and completed once by its answer or its `refund.*` webhook. A refund with `jobId` null gives back money a payment paid for nothing (decision 2250), opened by the verification, webhook or background job that found it, once per provider transaction: a second payment of an order already paid, a payment made after its order closed (the whole payment), or the lines another paid order already bought (their amount; `productName` is then the order's title). A refund with `orderId` null gives back a monthly plan's payment that paid nothing (decision 2262: a plan paid twice, a renewal charge that paid no month, a first payment of the wrong NGN amount), the whole payment; `reference` is the payment's and `productName` \"Monthly plan payment\". The background job sends any refund, a cancelled job's as well as these, again when it is still unsent a minute on and a refused one an hour on, asking the provider's refunds first so an earlier send whose answer was lost settles it instead (decisions 2251, 2284); an admin may retry one at once (POST /api/admin/refunds/{id}/retry). `pending`: sent and not yet completed (or not sent while the provider was unreachable); `failed`: refused by the provider, the money still due to the company; a failed refund is listed however old (up to 1,000 rows in all), so none falls off the list behind 200 newer ones (decision 2341).",
        response: { 200: refundsResponse },
        security,
      },
      preHandler: onlyAdmin,
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return { status: 'success' as const, refunds: await refunds.list() };
    },
  );

  app.post(
    '/api/admin/refunds/:id/retry',
    {
      schema: {
        tags,
        summary: 'Send a failed refund again (or one the provider never answered, after a minute)',
        description:
          "A refund the provider took and has not settled here (its webhook lost, or left alone because it matched two refunds of one payment) is asked about instead of sent again: the provider's word settles it once. Before one is sent again, the provider's refunds are listed (GET /v3/refunds): a refund of the same payment and amount that no refund here holds (an earlier send whose answer was lost) settles it instead. 503 when the provider cannot be reached for that; 409 when the refund is completed, the provider is still processing it, or it was sent less than a minute ago; 404 for an unknown refund.",
        params: z.object({ id: z.string().max(64) }),
        response: { 200: z.object({ status: z.literal('success'), refund: refundView }) },
        security,
      },
      preHandler: [onlyAdmin, recentCode],
    },
    async (request) => ({ status: 'success' as const, refund: await refunds.retry(request.params.id) }),
  );

  app.get(
    '/api/admin/reconciliation',
    {
      schema: {
        tags,
        summary: "The ledger's payments, refunds and payouts next to the payment provider's, and every difference",
        description:
          "`from` and `to` are Lagos days (YYYY-MM-DD, inclusive, at most 92 days; both default to the last 7 days). The ledger's `payment` and `refund` postings of orders and refunds made through the configured provider are matched with the provider's transactions (Flutterwave: GET /v3/transactions) and refunds (GET /v3/refunds) by the provider's id. Differences: `missing_in_ledger` (a successful payment or completed refund the ledger does not have, such as an underpaid transfer that paid no order), `missing_at_provider`, `amount_differs`, `currency_differs`, `status_differs`; each with the reference, both amounts in naira and the order and job it concerns. A payment's amounts are net settled: the ledger's payment less its `fee` posting, the provider's `amount` less the fee the platform bore (decision 2348: the amount less Flutterwave's `amount_settled`, else less `charged_amount` minus `app_fee`, else `app_fee`; nothing when the customer paid the fee on top), so a fee the ledger missed or got wrong is an `amount_differs`; `ledger.fees` and `atProvider.fees` total those fees of the period's payments. An empty list means the two agree. `payouts` compares the lawyers' payouts the same way (decision 2229): each `payout` posting of the period (made when an admin approved it) with the provider's transfer whose `reference` is the payout id (Flutterwave: GET /v3/transfers, newest first by `page`, amounts in naira). Its differences: `missing_in_ledger` (a SUCCESSFUL, NEW or PENDING transfer no posted payout names; `ledgerStatus` says `requested` or `rejected` when it names a payout never approved), `missing_at_provider` (a paid payout with no transfer), `status_differs` (a paid payout whose transfer FAILED, was REVERSED by the bank or is still pending; a failed payout, its money back with the lawyer, whose transfer went through or is pending), `currency_differs` (not NGN) and `amount_differs`; a payout still `sending` is in flight and only its amount and currency are compared. `payouts.ledger` totals the period's paid payouts and their transfer fees, `payouts.atProvider` its successful transfers and their fees. 503 when the provider cannot be reached.",
        querystring: reconciliationQuery,
        response: { 200: reconciliationResponse },
        security,
      },
      preHandler: onlyAdmin,
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return { status: 'success' as const, ...(await reconciliation.run(request.query)) };
    },
  );
};
