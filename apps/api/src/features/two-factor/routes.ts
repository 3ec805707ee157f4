import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  LIMITS,
  twoFactorLoginResponse,
  messages,
  okMessage,
  TWO_FACTOR,
  twoFactorCodeInput,
  twoFactorEnableInput,
  twoFactorEnableResponse,
  twoFactorLoginInput,
  twoFactorMessages,
  twoFactorNotMeCheckResponse,
  twoFactorNotMeInput,
  twoFactorNotMeResponse,
  twoFactorSetupResponse,
  twoFactorStatusResponse,
} from '@legalmarket/contracts';
import { unauthorized } from '../../platform/errors.js';
import type { FeatureOptions } from '../shared.js';

const tags = ['two-factor'];
const security = [{ bearer: [] }];
const LIMITED = `Each code counts against the account before it is compared: after ${TWO_FACTOR.maxFailures} wrong codes in ${TWO_FACTOR.windowMinutes} minutes every try answers 429 with Retry-After; a right code refunds the count.`;
const CODE =
  'A 6-digit code from the authenticator app (one step of 30 s either side of now, each step accepted once) or an unused recovery code (xxxxx-xxxxx).';

/** Authenticator-app enrolment, sign-in's second step and the step-up check (decision 2020). */
export const twoFactorRoutes: FastifyPluginAsyncZod<FeatureOptions> = async (app, { shared, services }) => {
  const { auth, limits, accounts } = shared;
  const twoFactor = services.twoFactor;
  const signedIn = auth.require();
  const ok = (message: string) => ({ status: 'success' as const, message });

  app.post(
    '/api/login/two-factor',
    {
      schema: {
        tags,
        summary: 'Second step of signing in: the code for the challenge',
        description: `For an account with two-factor on, POST /api/login answers \`{ twoFactorRequired: true, challengeToken, expiresAt }\` instead of a token. This call takes that \`challengeToken\` (valid ${TWO_FACTOR.challengeMinutes} minutes, dead after ${LIMITS.codeMaxAttempts} wrong codes) and the \`code\`, and answers what POST /api/login answers for everyone else, except that \`data.user\` is \`_id\` and \`userType\` without \`officialEmail\` (decision 2303). ${CODE} A wrong code answers 401 "${twoFactorMessages.codeWrong}", a dead challenge 401 "${twoFactorMessages.challengeExpired}". ${LIMITED}`,
        body: twoFactorLoginInput,
        response: { 200: twoFactorLoginResponse },
      },
    },
    async (request, reply) => {
      await limits.perAddress('login', request.ip);
      const { token, sessionId, user } = await twoFactor.login(
        request.body.challengeToken,
        request.body.code,
        request.ip,
      );
      shared.pageSessions.set(request, reply, { sessionId, userType: user.userType });
      return { status: 'success' as const, message: messages.welcomeBack, token, data: { user } };
    },
  );

  app.get(
    '/api/two-factor',
    {
      schema: {
        tags,
        security,
        summary: "Whether the signed-in account's two-factor authentication is on",
        description: 'Never answers the secret. `recoveryCodesLeft`: unused recovery codes.',
        response: { 200: twoFactorStatusResponse },
      },
      preHandler: signedIn,
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return { status: 'success' as const, data: await twoFactor.status(request.user!.id) };
    },
  );

  app.post(
    '/api/two-factor/setup',
    {
      schema: {
        tags,
        security,
        summary: 'Start enrolling an authenticator app',
        description: `Needs the current \`password\` (counted as a login try; wrong: 401). Answers a new secret (base32) and its otpauth:// URI, this once: they are stored encrypted and never answered again. Nothing changes at sign-in until POST /api/two-factor/enable confirms a first code; calling this again before then replaces the secret, except within a minute of the last call: a double tap or a retry then answers the same secret (docs/decisions/2221). 409 when two-factor is already on. Any signed-in account.`,
        body: z.object({
          password: z.string({ error: messages.enterPassword }).min(1, messages.enterPassword).max(128),
        }),
        response: { 200: twoFactorSetupResponse },
      },
      preHandler: signedIn,
    },
    async (request, reply) => {
      const user = request.user!;
      await limits.claimLoginAttempt(user.officialEmail);
      if (!(await accounts.checkPassword(user.id, request.body.password)))
        throw unauthorized(messages.invalidCredentials);
      await limits.loginSucceeded(user.officialEmail);
      reply.header('cache-control', 'no-store');
      return { status: 'success' as const, data: await twoFactor.setup(user) };
    },
  );

  app.post(
    '/api/two-factor/enable',
    {
      schema: {
        tags,
        security,
        summary: 'Turn two-factor on with the first code from the app',
        description: `Answers ${TWO_FACTOR.recoveryCodes} recovery codes, shown this once (stored hashed; each works once in place of a code). From now on sign-in asks for a code, and actions on money and on the account's keys (a new sign-in e-mail, deleting the account) ask again when this session's last code is older than ${TWO_FACTOR.stepUpMinutes} minutes. Every other session of the account ends (their next request answers 401); this one stays (decision 2181). A wrong code: 400; no set-up waiting: 400; already on: 409; this session ended meanwhile (a password reset, an undo link, "This wasn't me"): 401 and nothing is turned on (decision 2232). ${LIMITED} Audit-logged.`,
        body: twoFactorEnableInput,
        response: { 200: twoFactorEnableResponse },
      },
      preHandler: signedIn,
    },
    async (request, reply) => {
      const recoveryCodes = await twoFactor.enable(request.user!, request.body.code);
      reply.header('cache-control', 'no-store');
      return { ...ok(twoFactorMessages.enabled), data: { recoveryCodes } };
    },
  );

  app.post(
    '/api/two-factor/verify',
    {
      schema: {
        tags,
        security,
        summary: 'Prove a fresh code for this session (step-up)',
        description: `Actions on money (settlement account, commission, refunds, payouts, a lawyer's payout details, an admin's cancel or Mark as Completed, a company's plan upgrade; decisions 2282 and 2283) and on the account's keys (a new sign-in e-mail in PATCH /api/updateprofile, POST /api/account/delete; decision 2180) answer ${TWO_FACTOR.stepUpStatus} "${twoFactorMessages.stepUpRequired}" when the account has two-factor on and this session's last code is older than ${TWO_FACTOR.stepUpMinutes} minutes; the client sends a code here and repeats the action. ${CODE} Wrong: 400; two-factor off: 409. ${LIMITED}`,
        body: twoFactorCodeInput,
        response: { 200: okMessage },
      },
      preHandler: signedIn,
    },
    async (request) => {
      await twoFactor.verify(request.user!, request.body.code);
      return ok(twoFactorMessages.verified);
    },
  );

  app.post(
    '/api/two-factor/disable',
    {
      schema: {
        tags,
        security,
        summary: 'Turn two-factor off (needs a code)',
        description: `${CODE} Deletes the secret and the recovery codes. Wrong: 400; already off: 409. ${LIMITED} Audit-logged.`,
        body: twoFactorCodeInput,
        response: { 200: okMessage },
      },
      preHandler: signedIn,
    },
    async (request) => {
      await twoFactor.disable(request.user!, request.body.code);
      return ok(twoFactorMessages.disabled);
    },
  );

  const NOT_ME_FAILURES = `Unknown token: 404 "${twoFactorMessages.notMeLinkUnknown}"; used: 409 "${twoFactorMessages.notMeLinkUsed}"; older than ${TWO_FACTOR.notMeLinkDays} days: 410 "${twoFactorMessages.notMeLinkExpired}"; two-factor turned off or set up again since the e-mail: 409 "${twoFactorMessages.notMeLinkStale}"; the sign-in address changed since: 409 "${twoFactorMessages.notMeAddressChanged}". No sign-in needed: the token is the proof (a bearer token sent along is ignored). Counted per address with the other e-mailed links (429 past the limit).`;

  app.get(
    '/api/two-factor/not-me',
    {
      schema: {
        tags,
        summary: `Check a "This wasn't me" link before it is used`,
        description: `The e-mail sent when two-factor is turned on carries a link (\`/two-factor-not-me?token=\`) for the owner whose password was used to enrol someone else's authenticator app (decision 2220). This check changes nothing, so a mail scanner that opens the link does no harm: it answers when two-factor was turned on and when the link stops working, and the page asks the owner to confirm with POST. ${NOT_ME_FAILURES}`,
        querystring: twoFactorNotMeInput,
        response: { 200: twoFactorNotMeCheckResponse },
      },
    },
    async (request) => {
      await limits.perAddress('confirm', request.ip);
      return { status: 'success' as const, data: await twoFactor.checkNotMe(request.query.token) };
    },
  );

  app.post(
    '/api/two-factor/not-me',
    {
      schema: {
        tags,
        summary: `"This wasn't me": undo a two-factor enrolment and shut out whoever made it`,
        description: `Confirms the link of the two-factor-on e-mail (decision 2220), in one transaction under the account's row lock: the link is used (once, for that enrolment only), two-factor is turned off (secret and recovery codes deleted), every session of the account ends, every code, reset token, payout grant and two-factor sign-in still open dies (undo links of an e-mail change stay), the current password stops working, and the account's address is e-mailed a ${LIMITS.codeTtlMinutes}-minute code for POST /api/confirm-reset-token. Answers that address as \`data.officialEmail\`. Of two confirmations at once exactly one takes effect; the other answers 409. ${NOT_ME_FAILURES} Audit-logged (\`two_factor.not_me\`).`,
        body: twoFactorNotMeInput,
        response: { 200: twoFactorNotMeResponse },
      },
    },
    async (request) => {
      await limits.perAddress('confirm', request.ip);
      const data = await twoFactor.notMe(request.body.token);
      return { ...ok(twoFactorMessages.notMeDone), data };
    },
  );

  if (shared.config.NODE_ENV !== 'production')
    app.post(
      '/dev/two-factor/forget-code',
      {
        schema: {
          tags: ['platform'],
          security,
          summary: "Development only: forget this session's last authenticator code",
          description: `As if ${TWO_FACTOR.stepUpMinutes} minutes had passed since this session last proved a code: its next action on money or on the account's keys answers ${TWO_FACTOR.stepUpStatus}. Turning two-factor on ends every other session and sign-in proves a code (decision 2181), so without this a journey could not meet the step-up in less than ${TWO_FACTOR.stepUpMinutes} minutes. Not registered in production.`,
          response: { 200: okMessage },
        },
        preHandler: signedIn,
      },
      async (request) => {
        await twoFactor.forgetCheck(request.user!.sessionId);
        return ok('This session will be asked for a code at its next step-up');
      },
    );
};
