import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  checkoutResponse,
  messages,
  okMessage,
  ordersResponse,
  sandboxChargeResponse,
  sandboxChargeInput,
  sandboxVirtualAccountInput,
  sandboxVirtualAccountResponse,
  verifyPaymentResponse,
  verifyPaymentInput,
  verifyPaymentPendingResponse,
} from '@legalmarket/contracts';
import type { FeatureOptions } from '../shared.js';
import { AppError } from '../../platform/errors.js';
import { toOrderView } from './service.js';

const tags = ['checkout'];

/** Checkout, payment confirmation, the provider webhook and the company's orders. */
export const checkoutRoutes: FastifyPluginAsyncZod<FeatureOptions> = async (app, { shared, services }) => {
  const { checkout, paymentProvider: provider } = services;
  const companyOnly = shared.auth.require('company');

  app.post(
    '/api/checkout',
    {
      schema: {
        tags,
        summary: 'Start paying for the cart',
        description:
          "Company only, no payload. Snapshots the cart at catalogue prices into the company's one pending order (concurrent starts share it; when the cart changed, that order is set aside as `replaced`, keeping its lines, amount and reference for a payment already under way, and a new order with a new reference is made) and answers what the payment dialog needs: reference (tx_ref), amount in naira, currency NGN, customer e-mail, phone and name from the session, title (first product's name, else `Default Product Name`), payment options and the provider's public settings. 404 `Your cart is empty` when there is nothing to pay.",
        response: { 200: checkoutResponse },
      },
      preHandler: companyOnly,
    },
    async (request) => ({
      status: 'success' as const,
      message: messages.checkoutSuccessful,
      data: await checkout.start(request.user!),
    }),
  );

  app.post(
    '/api/checkout/verify',
    {
      schema: {
        tags,
        summary: 'Confirm a payment after the dialog reported success',
        description:
          "Company only. `reference` is the order's tx_ref, `transactionId` the provider's id from the dialog callback (optional; without it the server looks the reference up). The server asks the provider and fulfils only when the transaction is successful, in NGN, for exactly the order's amount and for this reference, checked against the order as locked when it is marked paid (an order's lines, amount and reference never change); then, in one transaction, the order is paid, one unassigned job per line is created and the cart lines it bought exactly leave the cart. Repeating it is harmless. Money a payment pays for nothing is refunded by itself, once per provider transaction (decision 2250; listed in GET /api/admin/refunds with no job, mailed with a credit note when completed): another successful payment of an order already paid buys nothing more (`payment_paid_twice`, the whole payment back), one made more than 48 hours after its order was started, when the order's prices are long gone, pays nothing (`payment_for_closed_order`, decision 2237, the whole payment back), and the lines another paid order already bought are left out of the jobs (`payment_lines_bought_twice`, decision 2243, their amount back). A payment for an account deleted meanwhile (`payment_for_deleted_account`) is logged for an admin to refund. 200 `Payment successful!`; 202 while the provider still reports the payment pending; 400 `Payment failed. Please try again.` for a failed, unknown or mismatched payment (mismatches are logged); 403 for another company's order.",
        body: verifyPaymentInput,
        response: {
          200: verifyPaymentResponse,
          202: verifyPaymentPendingResponse,
        },
      },
      preHandler: companyOnly,
    },
    async (request, reply) => {
      const outcome = await checkout.confirm(request.user!, request.body.reference, request.body.transactionId);
      if (outcome.result === 'pending')
        return reply
          .status(202)
          .send({ status: 'pending', message: messages.paymentPending, data: { order: toOrderView(outcome.order) } });
      return reply
        .status(200)
        .send({ status: 'success', message: messages.paymentSuccessful, data: { order: toOrderView(outcome.order) } });
    },
  );

  app.get(
    '/api/orders',
    {
      schema: {
        tags,
        summary: "The company's orders",
        description:
          'Company only: status, amount (naira), reference and dates, newest first (expired attempts left out).',
        response: { 200: ordersResponse },
      },
      preHandler: companyOnly,
    },
    async (request) => ({ status: 'success' as const, data: await checkout.listOrders(request.user!.id) }),
  );

  if (provider.name === 'sandbox') {
    app.post(
      '/api/checkout/sandbox/charge',
      {
        schema: {
          tags,
          summary: 'Sandbox dialog: charge a test card, mobile money, USSD or a bank transfer (sandbox provider only)',
          description:
            "Records a Flutterwave-shaped transaction that /api/checkout/verify then verifies like a real one. Card 5531 8866 5214 2950 with PIN 3310 and OTP 12345 succeeds; 5258 5859 2266 6506 fails with processor_response `Insufficient Funds` and 5399 8346 9789 4723 with `Incorrect PIN` (Flutterwave's published test cards); a wrong PIN or OTP on the successful card is a 400 naming it, nothing recorded; other cards are declined. Mobile money needs OTP 12345; USSD succeeds. `banktransfer` records the transfer the company says it sent to the temporary account (payment_type `bank_transfer`) with the amount and currency given: an underpaid or foreign-currency transfer is recorded and then refused by the verification. The amount is what the dialog was opened with, exactly like Flutterwave's inline form, so the server's comparison with the order still matters. A monthly plan's first payment (a `PLAN-` reference) takes a card only, as Flutterwave's payment plans do: another `paymentType` answers 400 (decision 2190). `amount` is in whole kobo: a fraction of a kobo (more than 2 decimals) answers 400 \"amount must be in whole kobo (at most 2 decimals)\" and records nothing.",
          body: sandboxChargeInput,
          response: { 200: sandboxChargeResponse },
        },
        preHandler: companyOnly,
      },
      async (request) => ({
        status: 'success' as const,
        data: await checkout.sandboxCharge(request.user!, request.body),
      }),
    );

    app.post(
      '/api/checkout/sandbox/virtual-account',
      {
        schema: {
          tags,
          summary: 'Sandbox dialog: the temporary account a bank transfer goes to (sandbox provider only)',
          description:
            "Like the account Flutterwave's checkout shows for a bank transfer: account number, bank, account name, the order's exact amount in naira, the reference to put in the narration and when the account stops accepting transfers (an hour from now). The same order always gets the same number. 404 for an unknown order or another company's; 409 when the order is already paid or no longer open.",
          body: sandboxVirtualAccountInput,
          response: { 200: sandboxVirtualAccountResponse },
        },
        preHandler: companyOnly,
      },
      async (request) => ({
        status: 'success' as const,
        data: await checkout.sandboxVirtualAccount(request.user!, request.body.reference),
      }),
    );
  }

  // The webhook reads the raw body (its signature covers the exact bytes), so it gets its own parsers.
  await app.register(async (scoped) => {
    scoped.removeAllContentTypeParsers();
    scoped.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 256 * 1024 }, (_req, body, done) =>
      done(null, body),
    );
    const inFlight = new Set<Promise<unknown>>();
    scoped.addHook('onClose', async () => {
      await Promise.allSettled([...inFlight]);
    });
    scoped.post(
      '/api/payments/webhook',
      {
        schema: {
          tags,
          summary: 'Flutterwave webhook',
          description:
            'Accepted only with the `verif-hash` header equal to FLW_SECRET_HASH, or a `flutterwave-signature` header holding the HMAC-SHA256 of the raw body keyed with it (base64 or hex); anything else answers 401 and is logged. Answers 200 at once; the transaction is then re-verified with Flutterwave (the payload is never trusted) and the order fulfilled exactly once (a second successful payment of a paid order is logged as `payment_paid_twice` and refunded, decision 2250). A `refund.*` event is checked the same way (GET /v3/refunds/{id}) and completes the refund it names (a cancelled job’s, or one of money a payment paid for nothing) exactly once. A `transfer.*` event (`transfer.completed`) is checked with GET /v3/transfers/{id} and settles the lawyer payout its reference names exactly once. A charge on a payment plan of the monthly plans whose reference is none of ours (a charge Flutterwave made on its own cycle, whatever its reference) pays nothing: it is logged (`plan_charged_by_provider`) for an admin to refund and listed by the reconciliation. A plan’s renewal charge (`SUB-…`) decides the next month when the scheduler made it (one it made that the provider took at the wrong amount in NGN puts the plan in grace and is refunded whole, once), and otherwise pays it only at exactly the price of a plan that renews; one for another month, a plan that stopped or was cancelled, or a failure or wrong amount the scheduler never charged moves nothing, and when it took money in NGN it is logged (`plan_renewal_unapplied`) and refunded whole by itself, once (decisions 2192 and 2262). A plan’s first payment of the wrong amount or currency is logged (`plan_payment_mismatch`; one in NGN is refunded whole, once), and a second payment of a paid one (`plan_paid_twice`, refunded whole, once).',
          response: { 200: okMessage },
        },
      },
      async (request, reply) => {
        const rawBody = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        if (!provider.authenticWebhook({ headers: request.headers, rawBody })) {
          shared.securityLog('webhook_bad_signature', { ip: request.ip });
          throw new AppError(401, messages.webhookRefused);
        }
        let payload: unknown;
        try {
          payload = JSON.parse(rawBody.toString('utf8'));
        } catch {
          return reply.status(200).send({ status: 'success', message: 'ignored' });
        }
        // Flutterwave names the event: refunds settle a cancelled job's refund, the rest are payments.
        const event = (payload as { event?: unknown } | null)?.event;
        const txRef = (payload as { data?: { tx_ref?: unknown } } | null)?.data?.tx_ref;
        // A plan's first payment or renewal (charge.completed carrying the payment plan) goes to the plans.
        const planCharge = typeof txRef === 'string' && /^(PLAN|SUB)-/.test(txRef);
        const handled = planCharge
          ? services.plans.onWebhook(payload)
          : typeof event === 'string' && event.startsWith('refund.')
            ? services.refunds.onWebhook(payload)
            : typeof event === 'string' && event.startsWith('transfer.')
              ? services.payouts.onWebhook(payload)
              : checkout
                  .onWebhook(payload)
                  // A reference no order has may be a charge Flutterwave made itself on a plan's payment plan.
                  .then((r) => (r.result === 'no_order' ? services.plans.onWebhook(payload) : r));
        const work = handled
          .catch((err) => request.log.error({ err }, 'webhook processing failed; the background job will retry'))
          .finally(() => inFlight.delete(work));
        inFlight.add(work);
        return reply.status(200).send({ status: 'success', message: 'received' });
      },
    );
  });
};
