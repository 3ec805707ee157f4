import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  addPaymentDetailsResponse,
  confirmPayoutOtpInput,
  editPaymentDetailsResponse,
  getPaymentDetailsResponse,
  idParam,
  lawyerResponse,
  type LawyerProfile,
  LIMITS,
  messages,
  okMessage,
  payoutDetailsBody,
  PAYOUT_NOT_ME_LINK_DAYS,
  payoutMessages,
  payoutNotMeCheckResponse,
  payoutNotMeInput,
  payoutNotMeResponse,
  TWO_FACTOR,
  optionalOwnId,
} from '@legalmarket/contracts';
import type { FeatureOptions } from '../shared.js';

const tags = ['lawyers'];
const ok = (message: string) => ({ status: 'success' as const, message });
/** The spec's message, and when the typed name clearly differed, the bank's name that was saved instead. */
const withBankName = (message: string, nameFromBank: string | null) =>
  nameFromBank ? `${message}. ${payoutMessages.nameFromBank(nameFromBank)}` : message;
/** The original client may name the lawyer in the query as `_id`; only the caller's own id is accepted. */
const ownIdQuery = z.object({ _id: optionalOwnId('_id') });

export const lawyersRoutes: FastifyPluginAsyncZod<FeatureOptions> = async (app, { shared, services }) => {
  const service = services.lawyers;
  const { auth, limits } = shared;
  /** Where a lawyer's money goes is a money action: an enrolled lawyer proves a fresh code (decision 2020). */
  const recentCode = services.twoFactor.requireRecentCode;
  const STEP_UP = ` A lawyer with two-factor on must have entered an authenticator code in this session within the last ${TWO_FACTOR.stepUpMinutes} minutes, else 428.`;

  app.get(
    '/api/lawyer/:id',
    {
      schema: {
        tags,
        summary: 'A lawyer profile (admin)',
        description:
          "Admins read any lawyer through this lookup, as `lawyer` at the top of the body and as `data.lawyer` (the spec's table answers `data.lawyer`, as it answers the login's `data.user`; decision 2234); lawyers read their own profile through GET /api/userprofile. 404 when the id is not a lawyer.",
        params: idParam,
        response: { 200: lawyerResponse },
        security: [{ bearer: [] }],
      },
      preHandler: auth.require('admin'),
    },
    async (request) => {
      const lawyer = (await service.lawyerById(request.params.id)) as LawyerProfile;
      return { status: 'success' as const, lawyer, data: { lawyer } };
    },
  );

  app.get(
    '/api/get-payment-details',
    {
      schema: {
        tags,
        summary: "The signed-in lawyer's payout details",
        description:
          '`lawyer` at the top of the body, with `_id` and `accountDetails` (the saved account, or empty when none was added). A lawyer only ever reads its own.',
        response: { 200: getPaymentDetailsResponse },
        security: [{ bearer: [] }],
      },
      preHandler: auth.require('lawyer'),
    },
    async (request) => ({ status: 'success' as const, lawyer: await service.getDetails(request.user!) }),
  );

  app.post(
    '/api/add-payment-details',
    {
      schema: {
        tags,
        summary: 'Add payout details (first time)',
        description:
          'accountNumber (10 digits, NUBAN; a JSON number gets its leading zeros back, decision 2248), accountName and bank: one of NIGERIAN_BANKS in @legalmarket/contracts, or a name that means one of them as people type it (`GTBank`, `gtbank`, `Guaranty Trust Bank`, `Access`, `UBA`...; case, spaces and words such as Bank or Plc do not matter); the list\'s name is saved. Answers `lawyer` at the top of the body, with `_id` and `accountDetails`. A `lawyerId` in the body or `_id` in the query that is not the caller\'s own id is the "mismatched account" case: 403 "Payment addition is unsuccessful."; either one blank, `null` or `undefined` is not sent, and a JSON-quoted id is read, as on the job page (decision 2350). Posting the same details again changes nothing; different details when some are saved answer 409 (changing needs the e-mailed code, see /api/send-otp). The lawyer is e-mailed. The account is checked with the bank through the payment provider (Flutterwave POST /v3/accounts/resolve) before it is saved: an account the bank does not know answers 400, an unreachable provider 503. The bank\'s name for the account is what is saved and answered as `accountName`; when the typed name clearly differs (no word in common) the message adds the name saved. Posting the same account again re-checks details saved before this check (a payout needs checked details).' +
          STEP_UP,
        body: payoutDetailsBody,
        querystring: ownIdQuery,
        response: { 201: addPaymentDetailsResponse, 200: addPaymentDetailsResponse },
        security: [{ bearer: [] }],
      },
      preHandler: [auth.require('lawyer'), recentCode],
    },
    async (request, reply) => {
      const { lawyerId, ...details } = request.body;
      const saved = await service.addDetails(request.user!, details, [lawyerId, request.query._id]);
      return reply.status(201).send({
        ...ok(withBankName(messages.paymentDetailsAdded, saved.nameFromBank)),
        lawyer: { _id: request.user!.id, accountDetails: saved.accountDetails },
      });
    },
  );

  app.post(
    '/api/send-otp',
    {
      schema: {
        tags,
        summary: 'E-mail a code for changing payout details',
        description: `No body. E-mails a six-digit code to the lawyer's address; it expires after ${LIMITS.codeTtlMinutes} minutes, works once and dies after ${LIMITS.codeMaxAttempts} wrong tries. Sending a new code kills the previous one; asked for again while the code mailed in the last ${LIMITS.repeatWindowSeconds} seconds is unused, nothing new is sent and that code stands (decision 2221): the answer is the same 200 with a Retry-After header (seconds until a new code may be asked for), which a first send never carries (decision 2312). 404 when no payout details are saved yet; at most ${shared.config.EMAIL_ACTION_MAX} codes per ${shared.config.LOGIN_WINDOW_MINUTES} minutes (429).`,
        response: { 200: okMessage },
        security: [{ bearer: [] }],
      },
      preHandler: auth.require('lawyer'),
    },
    async (request, reply) => {
      await limits.perAddress('mail', request.ip);
      // By account id: counted by address, the count would start again after an address change.
      await limits.perAccountAction('payout-otp', request.user!.id);
      const repeat = await service.sendCode(request.user!);
      // Nothing new was sent: still the spec's 200 (decision 2221, a double tap is no error), and
      // Retry-After tells the page that the earlier code stands and when to ask again (decision 2312).
      if (repeat) void reply.header('retry-after', String(repeat.retryAfterSeconds));
      return ok(messages.otpSent);
    },
  );

  app.post(
    '/api/confirm-otp',
    {
      schema: {
        tags,
        summary: 'Confirm the e-mailed code',
        description: `Body \`{ "otp": "123456" }\` (\`OTP\`, \`code\` and \`token\` are accepted too, and the digits as a number: leading zeros are put back, decisions 2234 and 2248). A right code opens a ${LIMITS.codeTtlMinutes}-minute window, for this session only, in which PATCH /api/edit-payment-details may be called once. A wrong, used, expired or locked code answers 400; past ${LIMITS.codeMaxAttempts} wrong codes per account per ${shared.config.LOGIN_WINDOW_MINUTES} minutes, across every code mailed, 429 with Retry-After (a right code refunds them). A code works once: sent again, even after a lost answer, it is a used code (400; decision 2312).`,
        body: confirmPayoutOtpInput,
        response: { 200: okMessage },
        security: [{ bearer: [] }],
      },
      preHandler: auth.require('lawyer'),
    },
    async (request) => {
      await limits.perAddress('code', request.ip);
      // Counted per account across every code mailed in the window: a new code buys no new guesses.
      await limits.claimCodeAttempt('payout', request.user!.id);
      await service.confirmCode(request.user!, request.body.otp);
      await limits.codeSucceeded('payout', request.user!.id);
      return ok(messages.otpConfirmed);
    },
  );

  app.patch(
    '/api/edit-payment-details',
    {
      schema: {
        tags,
        summary: 'Change payout details',
        description: `Same fields as add (the bank matched the same way); answers \`lawyerUpdate.accountDetails\` at the top of the body. Refused (403) unless this session confirmed a code in the last ${LIMITS.codeTtlMinutes} minutes; each confirmation allows one change. The lawyer is e-mailed. Checked with the bank as on add (400 unknown account, 503 provider unreachable; the code is not spent then); the bank’s name is saved. A \`lawyerId\` (body) or \`_id\` (query) that is not the caller’s own id: 403; blank or quoted, read as on add (decision 2350).${STEP_UP}`,
        body: payoutDetailsBody,
        querystring: ownIdQuery,
        response: { 200: editPaymentDetailsResponse },
        security: [{ bearer: [] }],
      },
      preHandler: [auth.require('lawyer'), recentCode],
    },
    async (request) => {
      const { lawyerId, ...details } = request.body;
      const saved = await service.editDetails(request.user!, details, [lawyerId, request.query._id]);
      return {
        ...ok(withBankName(messages.paymentDetailsUpdated, saved.nameFromBank)),
        lawyerUpdate: { _id: request.user!.id, accountDetails: saved.accountDetails },
      };
    },
  );

  const NOT_ME_FAILURES = `Unknown token: 404 "${payoutMessages.notMeLinkUnknown}"; used: 409 "${payoutMessages.notMeLinkUsed}"; older than ${PAYOUT_NOT_ME_LINK_DAYS} days: 410 "${payoutMessages.notMeLinkExpired}"; the details removed or changed since (a newer e-mail has its own link): 409 "${payoutMessages.notMeLinkStale}"; the sign-in address changed since: 409 "${payoutMessages.notMeAddressChanged}"; a token shorter than 20 or longer than 200 characters, or none: 400. No sign-in needed: the token is the proof (a bearer token sent along is ignored). Counted per address with the other e-mailed links (429 past the limit).`;

  app.get(
    '/api/payment-details/not-me',
    {
      schema: {
        tags,
        summary: `Check a payout-details "This wasn't me" link before it is used`,
        description: `The e-mail sent when payout details are added or changed carries a link (\`/payment-details-not-me?token=\`) for a lawyer who did not save them (decision 2244). This check changes nothing, so a mail scanner that opens the link does no harm: it answers the details (account number masked), when they were saved and when the link stops working; the page asks the owner to confirm with POST. ${NOT_ME_FAILURES}`,
        querystring: payoutNotMeInput,
        response: { 200: payoutNotMeCheckResponse },
      },
    },
    async (request) => {
      await limits.perAddress('confirm', request.ip);
      return { status: 'success' as const, data: await services.payouts.checkDetailsNotMe(request.query.token) };
    },
  );

  app.post(
    '/api/payment-details/not-me',
    {
      schema: {
        tags,
        summary: `"This wasn't me": remove payout details someone else saved and shut them out`,
        description: `Confirms the link of a payout-details e-mail (decision 2244), in one transaction under the lawyer's payout lock and row lock: the link is used (once, for those details only); the lawyer's withdrawals still waiting for approval to those details are rejected (the amount is withdrawable again, nothing is posted), the details are deleted, every session of the account ends, every code and grant dies, the current password stops working, and the account's address is e-mailed a ${LIMITS.codeTtlMinutes}-minute code for POST /api/confirm-reset-token. Answers that address and how many withdrawals were stopped. Of two confirmations at once exactly one takes effect; the other answers 409. Of a confirmation and an admin's approval of a waiting withdrawal, exactly one wins: the approval first sends it (the details are still removed), the confirmation first rejects it. ${NOT_ME_FAILURES} Audit-logged (\`payout_details.not_me\`).`,
        body: payoutNotMeInput,
        response: { 200: payoutNotMeResponse },
      },
    },
    async (request) => {
      await limits.perAddress('confirm', request.ip);
      const data = await services.payouts.detailsNotMe(request.body.token);
      return { ...ok(payoutMessages.notMeDone), data };
    },
  );
};
