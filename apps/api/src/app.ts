import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply } from 'fastify';
import compress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import {
  type FastifyPluginAsyncZod,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { findUnsafeText, refuseUnsafeText } from '@legalmarket/contracts';
import type { Config } from './config.js';
import type { Db } from './db/client.js';
import { createResponseCache, type ResponseCache } from './platform/response-cache.js';
import { createAuth, type Auth } from './platform/auth.js';
import type { Clock } from './platform/clock.js';
import { AppError, registerErrorHandling } from './platform/errors.js';
import { firstPage, sendHtml, type CartOfPage } from './platform/first-page.js';
import { createPageSessions } from './platform/page-session.js';
import { pagePreloads } from './platform/page-preloads.js';
import { isApiPath, isApiPrefixed, isPathOrUrl, routerPath } from './platform/api-paths.js';
import { lowerCaseBodyIds, lowerCaseIds } from './platform/ids.js';
import { routeMethods } from './platform/route-methods.js';
import { openApiDocument, openApiTransform } from './platform/openapi.js';
import { API_HEADERS, securityHeaders } from './platform/security-headers.js';
import type { MailWorker } from './platform/mailer.js';
import { createLimits, type RateLimitStore } from './platform/rate-limit.js';
import type { Storage } from './platform/storage.js';
import { tokenHasher } from './platform/tokens.js';
import { accountsRoutes } from './features/accounts/routes.js';
import { createAccountsService } from './features/accounts/service.js';
import { platformRoutes } from './features/platform/routes.js';
import { cartRoutes } from './features/cart/routes.js';
import { checkoutRoutes } from './features/checkout/routes.js';
import { companyJobRoutes } from './features/jobs/company-routes.js';
import { profilesRoutes } from './features/profiles/routes.js';
import { companiesRoutes } from './features/companies/routes.js';
import { uploadsRoutes } from './features/uploads/routes.js';
import { catalogueRoutes } from './features/catalogue/routes.js';
import { reviewsRoutes } from './features/reviews/routes.js';
import { lawyerJobRoutes } from './features/jobs/lawyer-routes.js';
import { lawyersRoutes } from './features/lawyers/routes.js';
import { adminRoutes } from './features/admin/routes.js';
import { jobsAdminRoutes } from './features/jobs/admin-routes.js';
import { jobWorkspaceRoutes } from './features/jobs/workspace-routes.js';
import { moneyRoutes } from './features/money/routes.js';
import { payoutRoutes } from './features/money/payout-routes.js';
import { twoFactorRoutes } from './features/two-factor/routes.js';
import { privacyRoutes } from './features/privacy/routes.js';
import { plansRoutes } from './features/plans/routes.js';
import { showcaseRoutes } from './features/showcase/routes.js';
import { createServices } from './features/services.js';
import { runEvery } from './platform/run-every.js';
import { poisonedKeyError } from './platform/json-body.js';
import type { FeatureOptions, Shared } from './features/shared.js';

/** Every feature's routes, registered in this order with the same options. */
const FEATURES: readonly FastifyPluginAsyncZod<FeatureOptions>[] = [
  platformRoutes,
  accountsRoutes,
  cartRoutes,
  checkoutRoutes,
  companyJobRoutes,
  profilesRoutes,
  companiesRoutes,
  uploadsRoutes,
  catalogueRoutes,
  reviewsRoutes,
  lawyerJobRoutes,
  lawyersRoutes,
  adminRoutes,
  jobsAdminRoutes,
  jobWorkspaceRoutes,
  moneyRoutes,
  payoutRoutes,
  twoFactorRoutes,
  privacyRoutes,
  plansRoutes,
  showcaseRoutes,
];

declare module 'fastify' {
  interface FastifyInstance {
    /** Hits and misses of the cached responses and verified sessions (decision 1500). */
    cacheStats(): {
      responses: ReturnType<ResponseCache['stats']>;
      sessions: ReturnType<Auth['stats']>;
    };
  }
}

export interface AppDeps {
  config: Config;
  db: Db;
  clock: Clock;
  storage: Storage;
  rateLimits: RateLimitStore;
  mail: MailWorker;
  /** Signs tokens and keys the hashes of codes. */
  secret: string;
  logger?: FastifyBaseLogger | boolean;
  /** Where the built web app is; null serves the API only. */
  webDist?: string | null;
  /** Run the job scheduler every minute (main.ts; tests call tick themselves). */
  jobScheduler?: boolean;
}

const DEFAULT_WEB_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist');

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, db, clock } = deps;
  const app = Fastify({
    ...(typeof deps.logger === 'object'
      ? { loggerInstance: deps.logger }
      : {
          logger: deps.logger ?? false,
        }),
    // One hop: the client is the address the proxy in front put last in X-Forwarded-For. Trusting every
    // hop took the first one, which a client writes itself whenever a proxy appends (decision 2120).
    trustProxy: config.TRUST_PROXY ? (_address: string, hop: number) => hop < 1 : false,
    bodyLimit: 1024 * 1024,
    // `/api/cart/` is `/api/cart`, as the Express back end the spec was written from answered (decision 2234);
    // `//api/login` too: the base address joined to the table's `/api/...` rows (decision 2304).
    routerOptions: { maxParamLength: 200, ignoreTrailingSlash: true, ignoreDuplicateSlashes: true },
    genReqId: () => crypto.randomUUID(),
    // The router refuses malformed percent-encoding and over-long path parameters before any route or
    // error handler runs; answer those in the one error shape too (found by test/security/bad-input).
    frameworkErrors: (err, _request, reply) => {
      const code = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 400;
      void (reply as unknown as FastifyReply)
        .status(code)
        .send({ status: 'fail', message: code === 414 ? 'The address is too long' : 'The address is not valid' });
    },
  }).withTypeProvider<ZodTypeProvider>();

  const methods = routeMethods();
  app.addHook('onRoute', (route) => methods.add(route.url, route.method));

  // Every route's input (body, query, path parameters) is checked for NUL and unpaired surrogates before
  // its own schema: PostgreSQL cannot store them, and a 400 naming the field beats a 500 from the insert.
  // The walk runs first and the wrapped schema only when it finds something: the same answers, without
  // a zod pipe on every request (it cost the one-product read a tenth of its rate).
  app.setValidatorCompiler((route) => {
    const validate = validatorCompiler({ ...route, schema: route.schema as z.ZodType });
    let refuse: ReturnType<typeof validatorCompiler> | null = null;
    const check = (data: unknown) => {
      if (findUnsafeText(data) === null) return validate(data);
      refuse ??= validatorCompiler({ ...route, schema: refuseUnsafeText(route.schema as z.ZodType) });
      return refuse(data);
    };
    if (route.httpPart !== 'body') return check;
    // A body left out is read as an empty form when the route needs one, so the answer names the missing
    // field with its own message ("Kindly request details") instead of "expected object, received null".
    return (data) => {
      const checked = check(data);
      return data == null && (checked as { error?: unknown }).error ? check({}) : checked;
    };
  });
  // The spec's client sends JSON headers on every call, also on the calls without a payload (logout,
  // clear-cart, checkout, send-otp, completejob, the DELETEs): an empty JSON body is no body, not a 400.
  // A valid body refused for a `__proto__` or `constructor.prototype` key is told so, not "not valid JSON".
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    if (text.trim() === '') return done(null, undefined);
    parseJson(request, text, (err, parsed) => done(err ? (poisonedKeyError(text) ?? err) : null, parsed));
  });
  // A bodiless call sent by a form library (logout, clear-cart, checkout, send-otp, completejob) says it is a form
  // with nothing in it: no body, as above. A form with fields is still refused (415, decision 2234).
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    if (body.toString().trim() === '') return done(null, undefined);
    done(Object.assign(new Error('Unsupported Media Type'), { statusCode: 415 }));
  });
  // An id in capitals names the same row: every route reads it as the database writes it (decision 2358).
  app.addHook('preValidation', (request, _reply, done) => {
    lowerCaseIds(request.params);
    lowerCaseIds(request.query);
    lowerCaseBodyIds(request.body);
    done();
  });
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  app.decorateRequest('user', null);

  // The security headers (helmet's, with our CSP) are worked out once and set on every answer: the
  // page set on pages and the OpenAPI viewer, the shorter API set on the API's answers; HSTS only
  // means something over https (directly or behind a proxy that says so).
  const headers = securityHeaders();
  app.addHook('onRequest', (request, reply, done) => {
    // `GET *api/userprofile` reached the route without the API's headers (isPathOrUrl): refused here.
    if (!isPathOrUrl(request.url) && !(request.url === '*' && request.method === 'OPTIONS')) {
      reply.headers(API_HEADERS);
      return void reply.status(400).send({ status: 'fail', message: 'The address is not valid: it must start with /' });
    }
    reply.headers(isApiPath(request.url) ? API_HEADERS : headers);
    if (request.protocol === 'https') reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
    done();
  });
  // A refusal before the whole body was read (an upload past its limit, a guest's upload) would leave
  // the half-read socket paused until the request timeout, or drain a gigabyte. Linger as nginx does:
  // drop what still arrives for a moment, so the client reads the answer, then close the connection.
  app.addHook('onResponse', (request, _reply, done) => {
    done();
    const raw = request.raw;
    const socket = raw.socket as (typeof raw.socket & { destroy?: unknown }) | undefined;
    if (raw.complete || raw.destroyed || typeof socket?.destroy !== 'function') return; // (inject has no socket)
    const close = () => socket.destroy();
    const timer = setTimeout(close, 2000);
    timer.unref();
    let dropped = 0;
    raw.unpipe();
    raw.on('data', (chunk: Buffer) => {
      dropped += chunk.length;
      if (dropped > 8 * 1024 * 1024) close();
    });
    // The socket outlives the request on a keep-alive connection: its listener goes once the body ended,
    // or every such refusal would leave one behind (MaxListenersExceededWarning after ten).
    const onClose = () => clearTimeout(timer);
    socket.once('close', onClose);
    raw.once('end', () => {
      clearTimeout(timer);
      socket.removeListener('close', onClose);
    });
  });
  await app.register(compress, { global: true, threshold: 1024 });

  await app.register(swagger, {
    openapi: {
      info: {
        title: 'LegalMarket API',
        version: '1.0.0',
        description:
          'Fixed-price legal services for Nigerian startups. Errors answer `{ status: "fail", message, issues? }`. Authenticated routes take `Authorization: Bearer <token>` from POST /api/login (the scheme in any case; quotes around the token are dropped). A trailing slash on a path is ignored. Decision 2234. A request target that is neither a path starting with `/` nor an absolute URL (`*api/x`) answers 400 "The address is not valid: it must start with /"; a JSON body that is valid but uses the key `__proto__` (or a `constructor` holding `prototype`) answers 400 naming that key ("Invalid request: the body may not use the key __proto__"), not "Body is not valid JSON".',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
    transform: openApiTransform,
    transformObject: openApiDocument,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });

  const auth = createAuth({ db, secret: deps.secret, clock, ttlHours: config.TOKEN_TTL_HOURS });
  const securityLog = (event: string, fields: Record<string, unknown>) =>
    app.log.info({ security: event, ...fields, at: clock.now().toISOString() }, `security:${event}`);
  const limits = createLimits(
    deps.rateLimits,
    {
      loginMaxFailures: config.LOGIN_MAX_FAILURES,
      loginWindowMs: config.LOGIN_WINDOW_MINUTES * 60_000,
      ipMax: config.IP_MAX_REQUESTS,
      ipWindowMs: config.IP_WINDOW_MINUTES * 60_000,
      emailActionMax: config.EMAIL_ACTION_MAX,
      emailActionWindowMs: config.LOGIN_WINDOW_MINUTES * 60_000,
    },
    (key) => securityLog('rate_limited', { key: key.replace(/:[^:]*@[^:]*$/, ':<account>') }),
  );
  const hashToken = tokenHasher(deps.secret);
  const accounts = createAccountsService({
    db,
    auth,
    clock,
    hashToken,
    publicUrl: config.PUBLIC_URL,
    supportEmail: config.SUPPORT_EMAIL,
    adminInviteCode: config.ADMIN_INVITE_CODE,
    mailWritten: () => deps.mail.nudge(),
    securityLog,
  });

  /** What feature services and routes may take (pick what you need; don't decorate Fastify with it). */
  const shared: Shared = {
    config,
    db,
    clock,
    auth,
    limits,
    storage: deps.storage,
    hashToken,
    securityLog,
    mailWritten: () => deps.mail.nudge(),
    accounts,
    responses: createResponseCache(db, {
      maxBytes: config.ANSWER_CACHE_MB * 1024 * 1024,
      checkReads: config.NODE_ENV === 'test',
      now: () => clock.now(),
    }),
    pageSessions: createPageSessions({
      auth,
      hashToken,
      ttlHours: config.TOKEN_TTL_HOURS,
      publicUrl: config.PUBLIC_URL,
    }),
  };

  // How often the cached responses and sessions were used (the tests read it).
  app.decorate('cacheStats', () => ({ responses: shared.responses.stats(), sessions: auth.stats() }));
  const services = createServices(shared, app.log);
  // The outbox names receipts and credit notes; the worker asks for their bytes when it sends.
  deps.mail.renderAttachmentsWith(services.receipts.attachment);
  for (const feature of FEATURES) await app.register(feature, { shared, services });
  if (deps.jobScheduler) {
    const { jobLifecycle, payouts } = services;
    // The clock's job transitions and reminders, and payouts left unsettled (a lost webhook, an unanswered send).
    runEvery(app, 60_000, 'job scheduler tick', () =>
      jobLifecycle.tick().then((n) => n && app.log.info({ fired: n }, 'job timers fired')),
    );
    runEvery(app, 60_000, 'payout reconciliation', async () => {
      await payouts.reconcile();
      await payouts.recheckPaid();
    });
    // Plan renewals, reminders, lapses and ends (decision 1900).
    runEvery(app, 60_000, 'plan scheduler tick', () => services.plans.tick());
    // First plan payments whose confirm and webhook never came (decision 1901).
    runEvery(app, 60_000, 'plan payment reconciliation', () => services.plans.reconcileFirstPayments());
    // Confidential documents nobody attached within a week (decision 2360); hourly, as it reads every reference.
    runEvery(app, 3_600_000, 'orphan document sweep', async () => {
      const removed = await services.uploads.sweepOrphans();
      if (removed) app.log.info({ removed }, 'orphan documents removed');
    });
  }

  // A company's /cart is rendered with its cart when its page cookie names a live session (decision 2100).
  const cartOfPage = async (cookie: string | undefined) => {
    const companyId = await shared.pageSessions.companyOf(cookie);
    if (!companyId) return null;
    const cart = await services.cart.view(companyId).catch((err: unknown) => {
      if (err instanceof AppError && err.statusCode === 404) return []; // the spec's empty cart
      throw err;
    });
    return { userId: companyId, text: JSON.stringify(cart) };
  };
  await registerWeb(app, deps.webDist === undefined ? DEFAULT_WEB_DIST : deps.webDist, cartOfPage, methods);
  return app;
}

const NO_CACHE_FILES = new Set(['sw.js', 'manifest.webmanifest']);

/** Serves the built single-page app; hashed assets are immutable, every other page path gets index.html. */
async function registerWeb(
  app: FastifyInstance,
  dist: string | null,
  cartOfPage: CartOfPage,
  methods: ReturnType<typeof routeMethods>,
) {
  const hasWeb = dist !== null && existsSync(path.join(dist, 'index.html'));
  const indexHtml = hasWeb ? await readFile(path.join(dist!, 'index.html'), 'utf8') : null;
  const pageHtml = indexHtml ? await pagePreloads(dist!, indexHtml) : null;
  const rendered = await firstPage(app, hasWeb ? dist : null, cartOfPage);
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: dist!,
      wildcard: false,
      index: false,
      preCompressed: true,
      setHeaders(res, file) {
        res.header(
          'cache-control',
          file.includes(`${path.sep}assets${path.sep}`)
            ? 'public, max-age=31536000, immutable'
            : // The service worker and the manifest are checked on every visit, so a new build is seen at once.
              NO_CACHE_FILES.has(path.basename(file))
              ? 'no-cache'
              : 'public, max-age=3600',
        );
      },
    });
  }
  /** The path as the router reads it: percent-escapes decoded, an escaped slash kept as one segment. */
  const decodedPath = (url: string) => {
    try {
      return decodeURIComponent(url.replace(/%2f/gi, '%252F'));
    } catch {
      return url;
    }
  };
  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0];
    const isApi = isApiPrefixed(url);
    // An API address called with a method it does not take (PUT for the spec's PATCH): say which it takes.
    // The router matched the decoded path, so this matches it too; a handler that found nothing under a
    // method the address takes (a missing static file) is a plain 404.
    // Read as the router reads it: `//api/x` and `http://host/api/x` are `/api/x` (decision 2304).
    const allowed = isApi ? methods.allowed(decodedPath(routerPath(url))) : [];
    const takes = (m: string) => allowed.includes(m) || (m === 'HEAD' && allowed.includes('GET'));
    // OPTIONS asks which methods an address takes: the answer is that list, not a refusal (decision 2304).
    if (allowed.length > 0 && request.method === 'OPTIONS')
      return reply.status(204).header('allow', allowed.join(', ')).send();
    if (allowed.length > 0 && !takes(request.method)) {
      const list = allowed.filter((m) => m !== 'HEAD');
      return reply
        .status(405)
        .header('allow', allowed.join(', '))
        .send({
          status: 'fail',
          message: `${request.method} is not allowed here. This address takes ${list.join(' or ')}.`,
        });
    }
    if (isApi || request.method !== 'GET' || !indexHtml) {
      return reply.status(404).send({
        status: 'fail',
        message: indexHtml || isApi ? 'Not found' : 'The web app is not built yet: run npm run build',
      });
    }
    // With its query: /products?q=&area=&min=&max= is rendered filtered (decision 2010).
    return rendered(request.url, pageHtml!(url), request.headers.cookie).then((page) =>
      sendHtml(
        request,
        // A company's own cart (decision 2100): kept by no cache, the browser's included.
        page.personal
          ? reply.header('cache-control', 'private, no-store').header('vary', 'cookie')
          : reply.header('cache-control', 'no-cache'),
        page.html,
      ),
    );
  });
}
