import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  adminSignupInput,
  companySignupInput,
  confirmEmailInput,
  confirmResetTokenResponse,
  confirmResetTokenBody,
  emailChangeTokenInput,
  emailOnlyInput,
  lawyerSignupInput,
  loginOrChallengeResponse,
  loginInput,
  logoutOthersResponse,
  twoFactorMessages,
  messages,
  okMessage,
  resetPasswordInput,
  resetPasswordQuery,
  userProfileResponse,
  type UserProfileResponse,
  storedId,
} from '@legalmarket/contracts';
import type { FeatureOptions } from '../shared.js';
import { AppError, forbidden, unauthorized } from '../../platform/errors.js';

const tags = ['accounts'];
const ok = (message: string) => ({ status: 'success' as const, message });

export const accountsRoutes: FastifyPluginAsyncZod<FeatureOptions> = async (app, { shared, services }) => {
  const { accounts, auth, limits } = shared;
  /** The three sign-ups differ only in their documentation, body and service call. */
  const signupRoute = <B extends z.ZodType<{ officialEmail: string }>>(
    url: string,
    summary: string,
    description: string,
    body: B,
    signup: (input: z.output<B>) => Promise<unknown>,
  ) =>
    app.post(
      url,
      { schema: { tags, summary, description, body, response: { 201: okMessage } } },
      async (request, reply) => {
        const input = request.body as z.output<B>;
        await limits.perAddress('signup', request.ip);
        // Each sign-up mails the address (a link, or a notice to its owner): limited per address as forgot-password is.
        await limits.perAccountAction('signup', input.officialEmail);
        await signup(input);
        return reply.status(201).send(ok(messages.accountCreated));
      },
    );

  /** The e-mailed link routes: a one-time token in the body, limited per address, answering a message. */
  const linkRoute = (
    url: string,
    summary: string,
    description: string,
    body: typeof emailChangeTokenInput,
    use: (token: string) => Promise<string>,
  ) =>
    app.post(url, { schema: { tags, summary, description, body, response: { 200: okMessage } } }, async (request) => {
      await limits.perAddress('confirm', request.ip);
      return ok(await use(request.body.token));
    });

  signupRoute(
    '/api/company/signup',
    'Company sign-up (both steps in one call)',
    "Creates an unconfirmed company account and e-mails a confirmation link. The company's name comes as `companyName` or, as the spec allows, `name`; the CAC number (optional: empty or null is none, decision 2210) as `cac` or the spec's `cacNumber`; the confirmation as `passwordConfirm` or, after the screen's label, `confirmPassword` (decision 2234). The answer is the same when the address is already registered; its owner is e-mailed instead, so sign-up reveals nothing about who has an account. At most 5 sign-ups per address per 15 minutes, existing or not (429), so no one can flood an inbox through it.",
    companySignupInput,
    (input) => accounts.signupCompany(input),
  );

  signupRoute(
    '/api/lawyer/signup',
    'Lawyer sign-up',
    'New lawyers start unverified; an admin verifies them. The optional CAC number and law firm name come as `cac` and `lawFirmName` or under the spec\'s names `cacNumber` and `firmName`; an optional field sent empty or null is none (decision 2210). `areasOfPractise` is a list, or one text holding it (`Maritime,Sports` or `["Maritime","Sports"]`), and the confirmation may come as `confirmPassword` (decision 2234). Same enumeration-safe answer as company sign-up.',
    lawyerSignupInput,
    (input) => accounts.signupLawyer(input),
  );

  signupRoute(
    '/api/admin/signup',
    'Admin sign-up with an invite code',
    "Needs `inviteCode` equal to the server's ADMIN_INVITE_CODE. Without a configured code admin sign-up is closed (403) and admins are created with `npm run create-admin`.",
    adminSignupInput,
    (input) => accounts.signupAdmin(input),
  );

  linkRoute(
    '/api/confirm-email',
    'Confirm an e-mail address with the link token',
    "Links work once and expire after 48 hours. A used, replaced or expired link answers 200 with 'Your email address is already confirmed. You can log in.' when its account is confirmed (a link opened twice), and 400 otherwise.",
    confirmEmailInput,
    async (token) =>
      (await accounts.confirmEmail(token)) === 'already' ? messages.emailAlreadyConfirmed : messages.emailConfirmed,
  );

  linkRoute(
    '/api/confirm-email-change',
    'Confirm a new sign-in e-mail address with the link token',
    'Step two of changing the sign-in e-mail (docs/decisions/0210): the link sent to the new address makes the change. It works once and expires after 24 hours; a used or expired link answers 400, and 409 when the address was taken meanwhile (nothing changes then). The old address then gets a link that undoes the change for 7 days. The change ends every session of the account but the one that asked for it, and kills every code, reset token and two-factor sign-in still open under the old address (docs/decisions/2181). Only the token decides whose address moves: a bearer token sent along is ignored.',
    emailChangeTokenInput,
    async (token) => {
      await accounts.confirmEmailChange(token);
      return messages.emailChangeConfirmed;
    },
  );

  linkRoute(
    '/api/undo-email-change',
    'Cancel or undo a sign-in e-mail change with the link sent to the old address',
    'Works once, for 7 days. Logs out every device and kills every live code and link of the account; a pending change is cancelled, a completed one is reverted to the old address (409 when that address now belongs to another account that confirmed it: the sessions are still ended; an account signed up under it and never confirmed is deleted and the address restored). Back at the old address, a two-factor enrolment announced to another address, made while this one was away, is turned off, the password stops working and a reset code is mailed to the old address (decision 2232). Used or expired links answer 400.',
    emailChangeTokenInput,
    async (token) => {
      const outcome = await accounts.undoEmailChange(token);
      if (outcome === 'blocked') throw new AppError(409, messages.emailChangeRevertBlocked);
      return outcome === 'reverted' ? messages.emailChangeReverted : messages.emailChangeCancelled;
    },
  );

  app.post(
    '/api/resendconfirmemail',
    {
      schema: {
        tags,
        summary: 'Send a new confirmation link',
        description: 'Same answer whether or not the address has an unconfirmed account.',
        body: emailOnlyInput,
        response: { 200: okMessage },
      },
    },
    async (request) => {
      await limits.perAddress('mail', request.ip);
      await limits.perAccountAction('resend-confirm', request.body.officialEmail);
      await accounts.resendConfirmation(request.body.officialEmail);
      return ok(messages.confirmationEmailSent);
    },
  );

  app.post(
    '/api/login',
    {
      schema: {
        tags,
        summary: 'Log in',
        description:
          'Answers a bearer token (12 h) carrying officialEmail, phoneNumber, name and exp, and `data.user` with `_id`, `userType` and `officialEmail` (the spec\'s user session, decision 2303). A company also gets an HttpOnly cookie for the /cart page alone (`lm_page_session`: the session id and an HMAC of it, not the token; Path=/cart, SameSite=Lax, Secure on an https site): the server renders its cart into that page, and no API call accepts it. A lawyer or admin sign-in answers a `Set-Cookie` that clears it (decision 2100). An account with two-factor authentication on gets no token yet: `{ status: "success", message, twoFactorRequired: true, challengeToken, expiresAt }`, and POST /api/login/two-factor with the challenge and a code answers the token (decision 2020). Wrong e-mail and wrong password answer the same 401; an unconfirmed address answers 403 "Please confirm your email address to log in.". Each try is counted before the password is checked and a right password refunds it: after 10 failures per account in 15 minutes every try answers 429 with Retry-After, however many arrive at once.',
        body: loginInput,
        response: { 200: loginOrChallengeResponse },
      },
    },
    async (request, reply) => {
      const email = request.body.officialEmail;
      await limits.perAddress('login', request.ip);
      // Counted before the hash is evaluated; a right password (confirmed or not) refunds the try.
      await limits.claimLoginAttempt(email);
      const result = await accounts.login(email, request.body.password, request.ip, (id) =>
        services.twoFactor.enabledFor(id),
      );
      if (!result.ok) throw unauthorized(messages.invalidCredentials);
      if (!result.confirmed) {
        await limits.loginSucceeded(email);
        throw forbidden(messages.unconfirmedEmail);
      }
      await limits.loginSucceeded(email);
      if (result.secondFactor)
        return {
          status: 'success' as const,
          message: twoFactorMessages.codeRequired,
          twoFactorRequired: true as const,
          ...(await services.twoFactor.challenge(result.userId)),
        };
      shared.pageSessions.set(request, reply, { sessionId: result.sessionId, userType: result.user.userType });
      return {
        status: 'success' as const,
        message: messages.welcomeBack,
        token: result.token,
        data: { user: result.user },
      };
    },
  );

  app.post(
    '/api/logout',
    {
      schema: {
        tags,
        summary: 'Log out',
        description:
          'Revokes the session on the server: the token stops working at once, and the page cookie goes (`Set-Cookie: lm_page_session=; Max-Age=0`). Idempotent: without a token, or with one already revoked or expired, the answer is the same 200 (there is nothing left to end).',
        response: { 200: okMessage },
      },
      preHandler: auth.optional,
    },
    async (request, reply) => {
      if (request.user) await auth.revokeSession(request.user.sessionId);
      shared.pageSessions.clear(request, reply);
      return ok(messages.loggedOut);
    },
  );

  app.post(
    '/api/logout/others',
    {
      schema: {
        tags,
        summary: 'Sign out of all other devices',
        description: `No body. Ends every other session of the signed-in account (their next request answers 401, on every instance: the session cache moves with the sessions table, decision 1500) and keeps this one; answers how many ended as \`data.ended\` (0 when there were none: safe to repeat). The account's row is locked as a password reset locks it, so a sign-in whose password was checked just before is ended too (decision 2245). A session that ended meanwhile: 401. At most ${shared.config.EMAIL_ACTION_MAX} calls per account per ${shared.config.LOGIN_WINDOW_MINUTES} minutes (429). Audit-logged (\`sessions.end_others\`).`,
        response: { 200: logoutOthersResponse },
        security: [{ bearer: [] }],
      },
      preHandler: auth.require(),
    },
    async (request) => {
      await limits.perAccountAction('logout-others', request.user!.id);
      const ended = await accounts.endOtherSessions(request.user!);
      return { ...ok(messages.otherSessionsEnded), data: { ended } };
    },
  );

  app.post(
    '/api/forgot-password',
    {
      schema: {
        tags,
        summary: 'E-mail a six-digit password reset code',
        description:
          "The spec's answer carried userType; it is left out on purpose, and the answer is the same whether or not the address exists. Codes expire after 10 minutes, work once and die after 5 wrong tries. Asked for again while the code mailed in the last minute is still unused (a double tap, a retry), nothing new is sent: that code stands (decision 2221).",
        body: emailOnlyInput,
        response: { 200: okMessage },
      },
    },
    async (request) => {
      await limits.perAddress('mail', request.ip);
      await limits.perAccountAction('forgot-password', request.body.officialEmail);
      await accounts.forgotPassword(request.body.officialEmail);
      return ok(messages.passwordResetEmailSent);
    },
  );

  app.post(
    '/api/confirm-reset-token',
    {
      schema: {
        tags,
        summary: 'Check the reset code',
        description:
          "Takes the six digits as `token` (text, or the joined digits as a number: leading zeros are put back, decision 2234) and the account's `officialEmail` (codes are only unique per account; sent as `userEmail` or `email` instead, as the spec's client holds it, it is read the same, decision 2326). Answers a `resetToken` for the new-password step, valid 10 minutes, once. At most 5 wrong codes per account per 15 minutes, across every code mailed (429 with Retry-After); a right code refunds them.",
        body: confirmResetTokenBody,
        response: { 200: confirmResetTokenResponse },
      },
    },
    async (request) => {
      await limits.perAddress('code', request.ip);
      // Counted per account across every code mailed in the window, known address or not.
      await limits.claimCodeAttempt('password-reset', request.body.officialEmail);
      const resetToken = await accounts.confirmResetCode(request.body.officialEmail, request.body.token);
      await limits.codeSucceeded('password-reset', request.body.officialEmail);
      return { ...ok(messages.otpConfirmedReset), resetToken };
    },
  );

  app.patch(
    '/api/reset-password',
    {
      schema: {
        tags,
        summary: 'Set a new password',
        description:
          'Query userEmail and token (the resetToken); userType is accepted for compatibility and ignored. A space in userEmail is read as `+` (an address put in the query without encoding; decision 2234). Logs out every session of the account.',
        querystring: resetPasswordQuery,
        body: resetPasswordInput,
        response: { 200: okMessage },
      },
    },
    async (request) => {
      await limits.perAddress('code', request.ip);
      await accounts.resetPassword(request.query.userEmail, request.query.token, request.body.password);
      return ok(messages.passwordResetSuccessfully);
    },
  );

  app.get(
    '/api/userprofile',
    {
      schema: {
        tags,
        summary: "The signed-in user's own profile",
        description:
          "The profile itself at the top of the body, `_id` equal to the id asked for (spec section 6). Only the caller's own id is answered; any other id gets 403 with the spec's permission message.",
        querystring: z.object({ _id: storedId(z.uuid(messages.noPermissionProfile)) }),
        response: { 200: userProfileResponse },
      },
      preHandler: auth.require(),
    },
    async (request) => {
      return (await accounts.getOwnProfile(request.user!.id, request.query._id)) as UserProfileResponse;
    },
  );
};
