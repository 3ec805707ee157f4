import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { buildApp } from '../src/app.js';
import { testConfig } from '../src/config.js';
import { appDeps, openRuntime, type Runtime } from '../src/runtime.js';

const routes: RouteOptions[] = [];

// buildApp creates its Fastify instance and registers every route inside it; a hook added at
// creation is the one place that sees each route with its options.
vi.mock('fastify', async (importOriginal) => {
  const real = await importOriginal<typeof import('fastify')>();
  const create = ((options?: Parameters<typeof real.default>[0]) => {
    const app = real.default(options);
    app.addHook('onRoute', (route) => {
      routes.push(route);
    });
    return app;
  }) as typeof real.default;
  return { ...real, default: create };
});

/**
 * Routes that send no JSON a response schema could describe, each with why. The web app's catch-all
 * (webDist set) is not registered here; it sends the built HTML files.
 */
const WITHOUT_RESPONSE_SCHEMA: Record<string, string> = {
  'GET /api/docs': 'Swagger UI: an HTML page (one route for /api/docs and /api/docs/, trailing slashes ignored)',
  'GET /api/docs/static/index.html': 'Swagger UI: an HTML page',
  'GET /api/docs/static/swagger-initializer.js': 'Swagger UI: a script',
  'GET /api/docs/static/*': "Swagger UI's static files",
  'GET /api/docs/json': 'the OpenAPI document these schemas generate',
  'GET /api/docs/yaml': 'the OpenAPI document these schemas generate',
  'GET /api/remuneration-order': 'a PDF streamed from storage',
  'GET /api/admin/ledger.csv': 'the ledger as CSV text',
  'GET /uploads/:key': 'an uploaded file streamed from storage',
  'GET /dev/mailbox': 'development only, never in production; an HTML page unless asked for JSON',
  'GET /dev/mailbox/:id/attachments/:index': 'development only: a mail attachment (PDF) rendered as the worker would',
  'GET /api/orders/:id/receipt.pdf': 'a receipt PDF rendered on the server',
  'GET /api/refunds/:id/credit-note.pdf': 'a credit note PDF rendered on the server',
  'GET /api/account/export': "a zip archive of the caller's data, streamed (decision 2030)",
};

let rt: Runtime;
let app: FastifyInstance;

beforeAll(async () => {
  rt = await openRuntime(testConfig({ PUBLIC_URL: 'http://localhost:3000', SEED_CATALOGUE: 'false' }));
  app = await buildApp({ ...appDeps(rt), logger: false, webDist: null });
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  await rt?.close();
});

it('every registered route has a response schema, except the few named with why', () => {
  const missing = routes
    .filter((r) => !r.schema?.response)
    .flatMap((r) => [r.method].flat().map((m) => `${m} ${r.url}`))
    // Fastify adds HEAD for each GET with the GET's options; the GET is what is checked.
    .filter((key) => !key.startsWith('HEAD '));
  expect(routes.length).toBeGreaterThan(50);
  expect(missing.filter((key) => !(key in WITHOUT_RESPONSE_SCHEMA))).toEqual([]);
  // An exemption that no longer matches a route goes too.
  expect(Object.keys(WITHOUT_RESPONSE_SCHEMA).filter((key) => !missing.includes(key))).toEqual([]);
});
