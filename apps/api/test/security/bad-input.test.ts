import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { createHash } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { z } from 'zod';
import { jobs, users } from '../../src/db/schema.js';
import { createAuth } from '../../src/platform/auth.js';
import { rowsOf } from '../../src/db/client.js';
import { createTestApp, describeEachDb, PASSWORD, signupAndLogin, type DbKind, type TestApp } from '../helpers.js';
import { multipart, pdfBytes, pngBytes, type Part } from '../upload-helpers.js';
import { allowedActor, TABLE, type Actor } from './authz-table.js';
import {
  junkBody,
  junkQuery,
  junkRest,
  junkWebhookHeaders,
  staticFileServed,
  unsafeText,
  type JunkCase,
} from './bad-input-junk.js';
import { routeKeys, type CollectedRoute } from './route-collector.js';

const collected = vi.hoisted(() => [] as CollectedRoute[]);
vi.mock('fastify', async (importOriginal) => {
  const { collectingFastify } = await import('./route-collector.js');
  return collectingFastify(await importOriginal(), collected);
});

/**
 * Issue 8, item 2: for every route with a body, query or params schema, generated malformed inputs
 * (fast-check, from the route's own zod schemas) never get a 5xx; every refusal is a 4xx
 * `{ status: "fail", message }` without a stack trace; a body the schema refuses always gets 400; and
 * no refused request changes the database (a checksum of every table before and after).
 * Multipart routes (no zod body) get malformed forms and broken multipart bytes.
 * Every other registered route (reads, body-less actions, the docs, the webhook) gets junk queries,
 * unexpected bodies and, for a wildcard, hostile path tails (bad-input-junk.ts), as its own role and as
 * the other side; a 2xx must then be the answer the plain request gets, and a read must change nothing.
 *
 * Volume: RUNS per route on PGlite (at least 300), a smaller sample on PostgreSQL.
 * FC_SEED=<n> explores other inputs; the default seed keeps CI repeatable.
 */
const RUNS: Record<DbKind, number> = { pglite: 300, postgres: 40 };
const SEED = Number(process.env.FC_SEED ?? 20260808);

type Login = Awaited<ReturnType<typeof signupAndLogin>>;
type Json = Record<string, unknown>;
const isZod = (s: unknown): s is z.ZodType => !!s && typeof s === 'object' && '_zod' in s;

/** Routes whose body is a multipart form (or raw bytes), read by the handler rather than a zod schema. */
const FORM_ROUTES: Record<string, { fields: string[]; fileField: string; raw?: string }> = {
  'POST /api/uploads': { fields: ['kind'], fileField: 'file' },
  'PATCH /api/updateprofile': {
    fields: [
      'officialEmail',
      'currentPassword',
      'website',
      'yourBio',
      'phoneNumber',
      'alternativeEmailAddress',
      'officeAddress',
      'scn',
      'yearOfCall',
      'areasOfPractise',
      'profileImage',
    ],
    fileField: 'profileImage',
  },
  'POST /api/create': { fields: ['productName', 'productPrice', 'productDescription'], fileField: 'productImage' },
  'PUT /api/update/:id': { fields: ['productName', 'productPrice', 'productDescription'], fileField: 'productImage' },
  'PUT /api/remuneration-order': { fields: [], fileField: '', raw: 'application/pdf' },
};

// ------------------------------------------------------------------ generators

/** JSON Schema as zod 4 writes it (input side). */
interface JS {
  type?: string | string[];
  properties?: Record<string, JS>;
  required?: string[];
  items?: JS;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JS[];
  oneOf?: JS[];
  allOf?: JS[];
  format?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
}
const jsonSchemaOf = (s: z.ZodType) => z.toJSONSchema(s, { io: 'input', unrepresentable: 'any' }) as JS;

/** Percent-encodes any string, lone surrogates included (they become U+FFFD, as a browser would send). */
const enc = (v: string) =>
  [...Buffer.from(v, 'utf8')]
    .map((b) =>
      /[A-Za-z0-9\-_.~]/.test(String.fromCharCode(b))
        ? String.fromCharCode(b)
        : `%${b.toString(16).padStart(2, '0').toUpperCase()}`,
    )
    .join('');

const nest = (depth: number, obj: boolean): unknown => {
  let v: unknown = 'x';
  for (let i = 0; i < depth; i++) v = obj ? { a: v } : [v];
  return v;
};

/** Values of the wrong type, at the edges, or hostile, for any field. */
const hostileScalar = fc.oneof(
  fc.constantFrom<unknown>(
    null,
    true,
    false,
    0,
    -0,
    -1,
    -0.5,
    0.5,
    1.5,
    1e21,
    -1e21,
    2 ** 31,
    -(2 ** 31) - 1,
    2 ** 53 + 2,
    1e308,
    -1e308,
    5e-324,
    '',
    ' ',
    '\u0000',
    '\ud800',
    '\udfff\ud800',
    '\ufeff',
    '\u202eevil',
    '\u200b',
    'e\u0301',
    '🦄'.repeat(200),
    'ẞ'.repeat(1000),
    'a'.repeat(100_000),
    "' OR '1'='1",
    '1; DROP TABLE users; --',
    '<script>alert(1)</script>',
    '../../../etc/passwd',
    '..%2f..%2fetc%2fpasswd',
    '%00',
    '${7*7}',
    '{{7*7}}',
    '00000000-0000-0000-0000-000000000000',
    'ffffffff-ffff-ffff-ffff-ffffffffffff',
    '123e4567-e89b-12d3-a456-42661417400',
    '1',
    '-1',
    '1.5',
    '1e400',
    'NaN',
    'Infinity',
    'null',
    'true',
    '[]',
    '{}',
  ),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  unsafeText(),
  fc.integer(),
  fc.double({ noNaN: true }),
  fc.integer({ min: 50, max: 3000 }).map((d) => 'x'.repeat(d * 100)),
);
const hostile: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: hostileScalar },
  { weight: 1, arbitrary: fc.array(hostileScalar, { maxLength: 5 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 10 }), hostileScalar, { maxKeys: 5 }) },
  { weight: 1, arbitrary: fc.integer({ min: 20, max: 4000 }).chain((d) => fc.boolean().map((o) => nest(d, o))) },
  { weight: 1, arbitrary: fc.array(fc.constant('x'), { minLength: 1000, maxLength: 5000 }) },
);
const MASS_NAMES = [
  'role',
  'userType',
  'verified',
  'status',
  'price',
  'productPrice',
  'companyId',
  'assignedTo',
  'amount',
  '__proto__',
  'constructor',
  'prototype',
  'passwordHash',
  '_id',
];

/** Plausible values of the schema, with real ids and references from the world for known field names. */
function plausible(js: JS, name: string, known: Record<string, string[]>): fc.Arbitrary<unknown> {
  if (known[name]?.length) return fc.oneof(fc.constantFrom(...known[name]), plausibleRaw(js, name, known));
  return plausibleRaw(js, name, known);
}
function plausibleRaw(js: JS, name: string, known: Record<string, string[]>): fc.Arbitrary<unknown> {
  const alts = js.anyOf ?? js.oneOf;
  if (alts?.length) return fc.oneof(...alts.map((a) => plausible(a, name, known)));
  if (js.allOf?.length) return plausible(js.allOf[0], name, known);
  if (js.enum) return fc.constantFrom(...js.enum);
  if (js.const !== undefined) return fc.constant(js.const);
  const type = Array.isArray(js.type) ? js.type[0] : js.type;
  switch (type) {
    case 'string': {
      if (js.format === 'uuid') return fc.uuid();
      if (js.format === 'email') return fc.emailAddress();
      if (js.pattern) {
        try {
          return fc.stringMatching(new RegExp(js.pattern), { size: 'small' });
        } catch {
          /* lookaheads and such: fall through */
        }
      }
      return fc.string({ minLength: js.minLength ?? 0, maxLength: Math.min(js.maxLength ?? 30, 60) });
    }
    case 'integer':
    case 'number': {
      // Inside the schema's range, with its edges: an unbounded field also gets numbers no column holds.
      const min = js.minimum ?? (js as { exclusiveMinimum?: number }).exclusiveMinimum ?? -1e6;
      const max = js.maximum ?? (js as { exclusiveMaximum?: number }).exclusiveMaximum ?? 1e6;
      const edges = [min, max, 2 ** 31, 2 ** 53, 1e21, 1e308, 0.001, 1.005].filter(
        (n) => n >= min && n <= max && (type === 'number' || Number.isInteger(n)),
      );
      const inRange =
        type === 'integer'
          ? fc.integer({ min: Math.max(Math.ceil(min), -(2 ** 31)), max: Math.min(Math.floor(max), 2 ** 31 - 1) })
          : fc.double({ min, max, noNaN: true });
      if (js.maximum === undefined && (js as { exclusiveMaximum?: number }).exclusiveMaximum === undefined)
        edges.push(2 ** 31, 2 ** 53, 1e21, 1e308);
      return edges.length ? fc.oneof(inRange, fc.constantFrom(...edges)) : inRange;
    }
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(js.items ? plausible(js.items, name, known) : fc.string(), { maxLength: 4 });
    case 'object': {
      const props = Object.entries(js.properties ?? {});
      const required = new Set(js.required ?? []);
      return fc.record(Object.fromEntries(props.map(([k, v]) => [k, plausible(v, k, known)])), {
        requiredKeys: props.map(([k]) => k).filter((k) => required.has(k)),
      });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** A malformed variant: the plausible object with fields dropped, retyped, made huge, or extra ones added. */
function malformed(js: JS, known: Record<string, string[]>): fc.Arbitrary<unknown> {
  const mutation = fc.record({
    kind: fc.constantFrom('drop', 'replace', 'replace', 'replace', 'extra', 'extra'),
    index: fc.nat(),
    value: hostile,
    extra: fc.oneof(fc.constantFrom(...MASS_NAMES), fc.string({ maxLength: 20 })),
  });
  const mutated = fc
    .tuple(plausible(js, '', known), fc.array(mutation, { minLength: 1, maxLength: 4 }))
    .map(([base, muts]) => {
      if (!base || typeof base !== 'object' || Array.isArray(base)) return muts[0].value;
      const o: Json = { ...(base as Json) };
      const keys = [...new Set([...Object.keys(js.properties ?? {}), ...Object.keys(o)])];
      for (const m of muts) {
        const k = keys.length ? keys[m.index % keys.length] : m.extra;
        if (m.kind === 'drop') delete o[k];
        else if (m.kind === 'replace') o[k] = m.value;
        else
          Object.defineProperty(o, m.extra, { value: m.value, enumerable: true, writable: true, configurable: true });
      }
      return o;
    });
  return fc.oneof({ weight: 6, arbitrary: mutated }, { weight: 1, arbitrary: hostile });
}

/** Broken JSON and wrong content types for a route that takes a JSON body. */
const rawBodies = fc.oneof(
  fc.constantFrom(
    { payload: '{', type: 'application/json' },
    { payload: '{"a":', type: 'application/json' },
    { payload: '{"a":1,}', type: 'application/json' },
    { payload: "{'a':1}", type: 'application/json' },
    { payload: '', type: 'application/json' },
    { payload: '\u0000', type: 'application/json' },
    { payload: '{"__proto__":{"isAdmin":true}}', type: 'application/json' },
    { payload: '{"constructor":{"prototype":{"isAdmin":true}}}', type: 'application/json' },
    { payload: '{"a":"\\ud800"}', type: 'application/json' },
    { payload: '{"a":1e999999}', type: 'application/json' },
    { payload: `${'['.repeat(100_000)}`, type: 'application/json' },
    { payload: 'a=1&b=2', type: 'application/x-www-form-urlencoded' },
    { payload: '<a>1</a>', type: 'application/xml' },
    { payload: 'hello', type: 'text/plain' },
    { payload: '{"a":1}', type: 'multipart/form-data' },
    { payload: '{"a":1}', type: 'application/json; charset=utf-16' },
  ),
  fc.string({ unit: 'binary', maxLength: 200 }).map((payload) => ({ payload, type: 'application/json' })),
);

/** Query strings: plausible or hostile values, repeated keys, broken percent-encoding, huge lengths. */
function queryString(js: JS | undefined, known: Record<string, string[]>): fc.Arbitrary<string> {
  const names = Object.keys(js?.properties ?? {});
  const value = (k: string) =>
    fc.oneof(
      js?.properties?.[k] ? plausible(js.properties[k], k, known).map(String) : fc.string(),
      hostileScalar.map((v) => (typeof v === 'string' ? v : (JSON.stringify(v) ?? ''))),
    );
  const pairs = fc.array(
    fc.oneof(
      names.length
        ? fc.constantFrom(...names).chain((k) => value(k).map((v) => [k, v] as const))
        : fc.constant(['x', 'y'] as const),
      fc.tuple(fc.oneof(fc.constantFrom(...MASS_NAMES), fc.string({ maxLength: 10 })), value('')),
    ),
    { maxLength: 6 },
  );
  return fc.oneof(
    { weight: 5, arbitrary: pairs.map((ps) => ps.map(([k, v]) => `${enc(k)}=${enc(v)}`).join('&')) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '%',
        'a=%E0%A4%A',
        '_id[]=1&_id[]=2',
        '__proto__[x]=1',
        'page=1&page=2',
        `a=${'b'.repeat(20_000)}`,
        '&&&=&=',
        '=x',
      ),
    },
  );
}

/** A value for a path parameter: a real id, or something hostile, percent-encoded. */
function paramValue(js: JS, name: string, known: Record<string, string[]>): fc.Arbitrary<string> {
  return fc.oneof(
    plausible(js, name, known).map((v) => enc(String(v))),
    hostileScalar.map((v) => enc(typeof v === 'string' ? v : String(v)).slice(0, 5000)),
    fc.constantFrom('%', '%zz', '..', '%2e%2e', '%2F', 'a%00b', '%E0%A4%A'),
  );
}

/** Multipart forms: fuzzed fields and files, and broken multipart bytes. */
function formBodies(spec: (typeof FORM_ROUTES)[string], known: Record<string, string[]>) {
  const fieldValue = fc.oneof(
    fc.constantFrom(
      '-1',
      '-0.5',
      '0',
      '1.5',
      '1e9',
      '99999999999999999999999',
      '25000',
      'abc',
      '',
      ' ',
      '\u0000',
      '2015',
      'image',
      'document',
      'Technology',
    ),
    hostileScalar.map((v) => (typeof v === 'string' ? v : String(v))),
    fc.constantFrom(...(known.url ?? ['x'])),
  );
  const file = fc.record({
    data: fc.oneof(
      fc.constant(pngBytes()),
      fc.constant(pdfBytes()),
      fc.constant(Buffer.alloc(0)),
      fc.uint8Array({ maxLength: 2000 }).map((a) => Buffer.from(a)),
    ),
    filename: fc.oneof(
      fc.constantFrom(
        'a.png',
        'a.pdf',
        '../../etc/passwd',
        'a\u0000.png',
        '',
        '.',
        'x'.repeat(1000),
        'ü🦄.pdf',
        'a"b.pdf',
      ),
      fc.string(),
    ),
    type: fc.constantFrom('image/png', 'application/pdf', 'text/html', 'application/octet-stream', ''),
  });
  const part: fc.Arbitrary<Part> = fc.oneof(
    fc.record({
      name: fc.oneof(fc.constantFrom(...spec.fields, ...MASS_NAMES), fc.string({ maxLength: 300 })),
      value: fieldValue,
    }),
    fc.record({ name: fc.constantFrom(spec.fileField || 'file', 'file', 'other'), file }),
  );
  const structured = fc.array(part, { maxLength: 8 }).map((parts) => ({ kind: 'form' as const, parts }));
  const broken = fc.record({
    kind: fc.constant('raw' as const),
    how: fc.constantFrom(
      'noBoundary',
      'wrongBoundary',
      'truncate',
      'flip',
      'noDisposition',
      'manyParts',
      'json',
      'empty',
      'garbage',
      'crlf',
    ),
    at: fc.nat(),
    bytes: fc.uint8Array({ maxLength: 64 }),
  });
  return fc.oneof({ weight: 3, arbitrary: structured }, { weight: 2, arbitrary: broken });
}

async function buildForm(
  body: { kind: 'form'; parts: Part[] } | { kind: 'raw'; how: string; at: number; bytes: Uint8Array },
  spec: (typeof FORM_ROUTES)[string],
): Promise<{ payload: Buffer | string; headers: Record<string, string> }> {
  if (spec.raw) {
    // A raw PDF upload: anything but a PDF, in the right or wrong type.
    const data = body.kind === 'raw' ? Buffer.from(body.bytes) : Buffer.from(JSON.stringify(body.parts).slice(0, 500));
    return { payload: data, headers: { 'content-type': body.kind === 'raw' && body.at % 2 ? 'text/plain' : spec.raw } };
  }
  if (body.kind === 'form') return multipart(body.parts);
  const good = await multipart([
    { name: spec.fields[0] ?? 'kind', value: 'x' },
    { name: spec.fileField || 'file', file: { data: pngBytes(), filename: 'a.png', type: 'image/png' } },
  ]);
  const ct = good.headers['content-type'];
  const boundary = ct.split('boundary=')[1];
  const buf = good.payload;
  const at = body.at % Math.max(buf.length, 1);
  switch (body.how) {
    case 'noBoundary':
      return { payload: buf, headers: { 'content-type': 'multipart/form-data' } };
    case 'wrongBoundary':
      return { payload: buf, headers: { 'content-type': `multipart/form-data; boundary=${boundary}x` } };
    case 'truncate':
      return { payload: buf.subarray(0, at), headers: { 'content-type': ct } };
    case 'flip': {
      const copy = Buffer.from(buf);
      copy.set(body.bytes.subarray(0, Math.max(0, copy.length - at)), at);
      return { payload: copy, headers: { 'content-type': ct } };
    }
    case 'noDisposition':
      return {
        payload: `--${boundary}\r\nContent-Type: text/plain\r\n\r\nvalue\r\n--${boundary}--\r\n`,
        headers: { 'content-type': ct },
      };
    case 'manyParts':
      return {
        payload:
          Array.from(
            { length: 200 },
            (_, i) => `--${boundary}\r\nContent-Disposition: form-data; name="f${i}"\r\n\r\nv\r\n`,
          ).join('') + `--${boundary}--\r\n`,
        headers: { 'content-type': ct },
      };
    case 'json':
      return { payload: '{"productName":"x"}', headers: { 'content-type': 'application/json' } };
    case 'empty':
      return { payload: '', headers: { 'content-type': ct } };
    case 'crlf':
      return { payload: buf.toString('latin1').replaceAll('\r\n', '\n'), headers: { 'content-type': ct } };
    default:
      return { payload: Buffer.concat([Buffer.from(body.bytes), buf]), headers: { 'content-type': ct } };
  }
}

// ------------------------------------------------------------------ text fields

type Path = Array<string | number>;

/** Every place in a JSON Schema where a string may go (through alternatives, arrays and nested objects). */
function textPaths(js: JS, path: Path = [], depth = 0): Path[] {
  if (depth > 4) return [];
  const alts = [...(js.anyOf ?? []), ...(js.oneOf ?? []), ...(js.allOf ?? [])];
  const types = Array.isArray(js.type) ? js.type : js.type ? [js.type] : [];
  const found: Path[] = [];
  if (types.includes('string')) found.push(path);
  if (types.includes('array') && js.items) found.push(...textPaths(js.items, [...path, 0], depth + 1));
  if (types.includes('object'))
    for (const [k, v] of Object.entries(js.properties ?? {})) found.push(...textPaths(v, [...path, k], depth + 1));
  for (const a of alts) found.push(...textPaths(a, path, depth + 1));
  const seen = new Set<string>();
  return found.filter((p) => !seen.has(JSON.stringify(p)) && !!seen.add(JSON.stringify(p)));
}

/** A copy of `base` with `value` at `path` (objects and arrays created on the way). */
function withValue(base: unknown, path: Path, value: unknown): unknown {
  if (!path.length) return value;
  const [head, ...rest] = path;
  const node = (
    typeof head === 'number'
      ? Array.isArray(base)
        ? [...(base as unknown[])]
        : []
      : base && typeof base === 'object' && !Array.isArray(base)
        ? { ...(base as Json) }
        : {}
  ) as Record<string | number, unknown>;
  node[head] = withValue(node[head], rest, value);
  return node;
}

// ------------------------------------------------------------------ database checksum

/**
 * Routes that check a one-time code: a wrong code is refused AND counted (attempts, then used_at when the
 * code dies after 5). That write is the brute-force protection itself, so only those two columns may move.
 */
const CODE_ROUTES = new Set(['POST /api/confirm-reset-token', 'POST /api/confirm-otp']);

/** The last checksum per test app and variant, with the transaction snapshot it was taken at. */
const lastChecksum = new WeakMap<TestApp, Map<boolean, { snapshot: string; sum: string }>>();

async function checksumOf(t: TestApp, tables: string[], ignoreCodeTries = false): Promise<string> {
  // No row changes without a transaction id. When no id was handed out since the last checksum and none
  // was in progress at either read (the snapshot reads `xmin:xmax:` alike), the rows are as they were:
  // the last sum stands, without hashing every table again (most of this suite's time on PGlite).
  const snapshot = rowsOf<{ s: string }>(
    await t.rt.database.db.execute(sql.raw(`select pg_current_snapshot()::text as s`)),
  )[0].s;
  const idle = /^(\d+):\1:$/.test(snapshot);
  const seen = lastChecksum.get(t)?.get(ignoreCodeTries);
  if (idle && seen?.snapshot === snapshot) return seen.sum;
  const row = (n: string) =>
    ignoreCodeTries && n === 'one_time_tokens'
      ? '(x.id, x.user_id, x.purpose, x.token_hash, x.expires_at, x.created_at)'
      : 'x';
  // Order-independent and cheap: the row count and the sum of a 64-bit hash of every row's text.
  const parts = tables.map(
    (n) =>
      `select '${n}' as t, count(*) || '/' || coalesce(sum(hashtextextended(${row(n)}::text, 7)::numeric), 0) as h from "${n}" x`,
  );
  const res = (await t.rt.database.db.execute(
    sql.raw(`select md5(string_agg(t || ':' || h, ',' order by t)) as sum from (${parts.join(' union all ')}) s`),
  )) as unknown as { rows: Array<{ sum: string }> };
  const sum = res.rows[0].sum;
  // Kept only when nothing was in progress before the hash either: a write committed during it may or
  // may not be in the sum.
  if (idle) {
    const byVariant = lastChecksum.get(t) ?? new Map<boolean, { snapshot: string; sum: string }>();
    byVariant.set(ignoreCodeTries, { snapshot, sum });
    lastChecksum.set(t, byVariant);
  } else lastChecksum.get(t)?.delete(ignoreCodeTries);
  return sum;
}

// ------------------------------------------------------------------ the test

const STACK = /\bat [^\s]+ \(?[^\s]*:\d+:\d+\)?|node_modules|\.ts:\d+|\.js:\d+/;

describeEachDb('bad input on every route', (kind) => {
  let t: TestApp;
  let who: Record<Exclude<Actor, 'guest'>, Login>;
  let known: Record<string, string[]>;
  let tables: string[];
  const report: Array<{
    route: string;
    cases: number;
    statuses: Record<number, number>;
    checked: number;
    ms: number;
    junk?: boolean;
  }> = [];

  beforeAll(async () => {
    collected.length = 0;
    t = await createTestApp(kind, {
      IP_MAX_REQUESTS: '10000000',
      LOGIN_MAX_FAILURES: '10000000',
      EMAIL_ACTION_MAX: '10000000',
      ADMIN_INVITE_CODE: 'bad-input-invite-code',
    });
    who = {
      companyA: await signupAndLogin(t, 'company'),
      companyB: await signupAndLogin(t, 'company'),
      lawyerUnverified: await signupAndLogin(t, 'lawyer'),
      lawyer: await signupAndLogin(t, 'lawyer', { verified: true }),
      otherLawyer: await signupAndLogin(t, 'lawyer', { verified: true }),
      admin: await signupAndLogin(t, 'admin'),
    };
    // A product, a cart line, a pending order, a paid job and a review, so real ids reach the handlers.
    const form = await multipart([
      { name: 'productName', value: 'Non-Disclosure Agreement' },
      { name: 'productPrice', value: '25000' },
      { name: 'productDescription', value: 'Drafted by a lawyer.' },
      { name: 'productImage', file: { data: pngBytes(), filename: 'p.png', type: 'image/png' } },
    ]);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/create',
      headers: { ...who.admin.headers, ...form.headers },
      payload: form.payload,
    });
    const product = created.json().data.product._id as string;
    const up = await multipart([
      { name: 'file', file: { data: pdfBytes(), filename: 'a.pdf', type: 'application/pdf' } },
    ]);
    const uploaded = await t.app.inject({
      method: 'POST',
      url: '/api/uploads?kind=document',
      headers: { ...who.companyA.headers, ...up.headers },
      payload: up.payload,
    });
    const url = uploaded.json().data.url as string;
    await t.app.inject({
      method: 'POST',
      url: '/api/cart',
      headers: who.companyA.headers,
      payload: { productId: product, file: url },
    });
    const start = await t.app.inject({ method: 'POST', url: '/api/checkout', headers: who.companyA.headers });
    const reference = start.json().data.reference as string;
    const review = await t.app.inject({
      method: 'POST',
      url: '/api/rating',
      headers: who.companyA.headers,
      payload: { productId: product, reviewTitle: 'Good', review: 'Clear.', status: 5 },
    });
    const { insertJob } = await import('../admin-fixtures.js');
    const job = await insertJob(t, who.companyA.id, { productId: product, status: 'pending', lawyerId: who.lawyer.id });
    const open = await insertJob(t, who.companyA.id, { productId: product });
    expect((await t.rt.database.db.select().from(jobs).where(eq(jobs.id, job.id))).length).toBe(1);
    const ids = [product, job.id, open.id, review.json()._id as string, who.lawyer.id, who.companyA.id];
    known = {
      id: ids,
      productId: [product],
      jobId: [open.id, job.id],
      lawyerId: [who.lawyer.id],
      _id: [who.companyA.id, who.lawyer.id],
      key: [url.split('/').pop()!],
      url: [url],
      file: [url],
      reference: [reference],
      officialEmail: [who.companyA.email, who.lawyer.email],
      userEmail: [who.companyA.email],
      action: ['message'],
      date: ['2027-03-01'],
    };
    const res = (await t.rt.database.db.execute(
      sql`select table_name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE' order by 1`,
    )) as unknown as { rows: Array<{ table_name: string }> };
    tables = res.rows.map((r) => r.table_name);
    expect(tables).toEqual(expect.arrayContaining(['users', 'jobs', 'orders', 'cart_items', 'reviews', 'uploads']));
  }, 180_000);

  afterAll(async () => {
    const total = report.reduce((n, r) => n + r.cases, 0);
    const junk = report.filter((r) => r.junk);
    console.info(
      `bad input [${kind}]: ${report.length} routes, ${total} cases (routes without an input schema: ${junk.length}, ${junk.reduce((n, r) => n + r.cases, 0)} cases, ${junk.reduce((n, r) => n + r.ms, 0)} ms)\n${report.map((r) => `  ${r.route}${r.junk ? ' (junk)' : ''}: ${r.cases} cases, ${r.checked} checksums, ${r.ms} ms ${JSON.stringify(r.statuses)}`).join('\n')}`,
    );
    await t?.close();
  });

  it('covers every registered route: those with a zod schema, the form routes and the rest (junk)', () => {
    const schemaRoutes = collected.filter(
      (r) => r.method !== 'HEAD' && (isZod(r.schema?.body) || isZod(r.schema?.querystring) || isZod(r.schema?.params)),
    );
    expect(schemaRoutes.length).toBeGreaterThan(40);
    // The rest get junk: together, every registered route, i.e. every row of the authorization table.
    expect(routeKeys(collected.filter((r) => r.method !== 'HEAD'))).toEqual(Object.keys(TABLE).sort());
    for (const key of Object.keys(FORM_ROUTES))
      expect(
        collected.some((r) => `${r.method} ${r.url}` === key),
        key,
      ).toBe(true);
  });

  // Issue 14, item 5: a NUL or an unpaired surrogate in a text field answered 500 ("invalid byte sequence")
  // once it reached an insert. Each text field of each route, one at a time, in an otherwise plausible input.
  it('refuses a NUL or an unpaired surrogate in every text field of every route with a 400 naming the field', async () => {
    const failures: string[] = [];
    let sent = 0;
    for (const r of collected) {
      const key = `${r.method} ${r.url}`;
      if (r.method === 'HEAD') continue;
      const actor = allowedActor(key);
      const headers = actor === 'guest' ? {} : who[actor].headers;
      const seed = SEED ^ Number.parseInt(createHash('sha1').update(`unsafe ${key}`).digest('hex').slice(0, 7), 16);
      const paramNames = [...r.url.matchAll(/:(\w+)/g)].map((m) => m[1]);
      const pathOf = (bad?: { name: string; value: string }) =>
        r.url.replace(/:(\w+)/g, (_m, p: string) => (bad?.name === p ? enc(bad.value) : (known[p] ?? known.id)[0]));
      const expectRefused = (
        label: string,
        res: { statusCode: number; body: string },
        field: string,
        path?: string,
      ) => {
        sent++;
        let json: { status?: string; message?: string; issues?: Array<{ path: string }> } = {};
        try {
          json = JSON.parse(res.body) as typeof json;
        } catch {
          /* reported below */
        }
        if (res.statusCode !== 400 || json.status !== 'fail' || !json.message?.includes(field))
          failures.push(`${label}: ${res.statusCode} ${res.body.slice(0, 160)}`);
        else if (path !== undefined && json.issues?.[0]?.path !== path)
          failures.push(`${label}: the issue names ${json.issues?.[0]?.path}, not ${path}`);
      };
      // Fastify checks the path parameters, then the body, then the query: each case keeps the others plausible.
      const queryZod = isZod(r.schema?.querystring) ? (r.schema!.querystring as z.ZodType) : undefined;
      const query = queryZod && jsonSchemaOf(queryZod);
      const querySamples = query ? fc.sample(plausible(query, '', known), { numRuns: 30, seed }) : [];
      const baseQuery = {
        ...((querySamples.find((v) => queryZod!.safeParse(v).success) ?? {}) as Json),
        ...(query?.properties?._id && actor !== 'guest' ? { _id: who[actor].id } : {}),
      };
      const queryOf = (bad?: { name: string; value: string }) => {
        const q = Object.entries({ ...baseQuery, ...(bad ? { [bad.name]: bad.value } : {}) });
        return q.length ? `?${q.map(([k, v]) => `${enc(k)}=${enc(String(v))}`).join('&')}` : '';
      };
      const bodyZod = isZod(r.schema?.body) ? (r.schema!.body as z.ZodType) : undefined;
      // Password rules use lookaheads fast-check cannot generate from: a valid password where one is asked for.
      const bodyJs = bodyZod && jsonSchemaOf(bodyZod);
      const passwords = Object.keys(bodyJs?.properties ?? {}).filter((k) => /password/i.test(k));
      const bodySamples = bodyJs
        ? fc
            .sample(plausible(bodyJs, '', known), { numRuns: 30, seed })
            .map((v) =>
              v && typeof v === 'object' ? { ...v, ...Object.fromEntries(passwords.map((k) => [k, PASSWORD])) } : v,
            )
        : [];
      const baseBody = bodySamples.find((v) => bodyZod!.safeParse(v).success) ?? bodySamples[0];
      const plainBody = bodyZod
        ? { headers: { 'content-type': 'application/json' }, payload: JSON.stringify(baseBody ?? {}) }
        : { headers: {} };
      const before = await checksumOf(t, tables);

      if (bodyJs) {
        const paths = textPaths(bodyJs);
        const values = fc.sample(unsafeText(), { numRuns: Math.max(paths.length * 2, 1), seed });
        for (const [i, path] of paths.entries()) {
          for (const value of [values[2 * i], values[2 * i + 1]]) {
            const res = await t.app.inject({
              method: r.method as 'POST',
              url: pathOf() + queryOf(),
              headers: { ...headers, 'content-type': 'application/json' },
              payload: JSON.stringify(withValue(baseBody, path, value)),
            });
            const field = String(path.filter((p) => typeof p === 'string').pop());
            expectRefused(`${key} body ${path.join('.')}=${JSON.stringify(value)}`, res, field, path.join('.'));
          }
        }
      }
      // Query strings and path parameters arrive percent-encoded UTF-8, where only NUL can be spelled.
      for (const name of Object.keys(query?.properties ?? {})) {
        const [value] = fc.sample(unsafeText(['\u0000']), { numRuns: 1, seed: seed + name.length });
        const res = await t.app.inject({
          method: r.method as 'GET',
          url: pathOf() + queryOf({ name, value }),
          headers: { ...headers, ...plainBody.headers },
          ...(plainBody.payload !== undefined ? { payload: plainBody.payload } : {}),
        });
        expectRefused(`${key} ?${name}=${JSON.stringify(value)}`, res, name, name);
      }
      for (const name of paramNames) {
        const [value] = fc.sample(unsafeText(['\u0000']), { numRuns: 1, seed: seed + name.length });
        const res = await t.app.inject({
          method: r.method as 'GET',
          url: pathOf({ name, value }) + queryOf(),
          headers: { ...headers, ...plainBody.headers },
          ...(plainBody.payload !== undefined ? { payload: plainBody.payload } : {}),
        });
        expectRefused(`${key} :${name}=${JSON.stringify(value)}`, res, name);
      }
      const form = FORM_ROUTES[key];
      for (const name of form?.fields ?? []) {
        const [value] = fc.sample(unsafeText(['\u0000']), { numRuns: 1, seed: seed + name.length });
        const built = await multipart([
          { name, value },
          { name: form!.fileField, file: { data: pngBytes(), filename: 'a.png', type: 'image/png' } },
        ]);
        const res = await t.app.inject({
          method: r.method as 'POST',
          url: pathOf() + queryOf(),
          headers: { ...headers, ...built.headers },
          payload: built.payload,
        });
        expectRefused(`${key} form ${name}=${JSON.stringify(value)}`, res, name);
      }
      if ((await checksumOf(t, tables)) !== before) failures.push(`${key}: the database changed`);
      if (failures.length > 40) break;
    }
    expect(failures.slice(0, 40)).toEqual([]);
    expect(sent).toBeGreaterThan(150);
  }, 300_000);

  it('answers malformed input with a clean 4xx, never 5xx, never a stack trace, and leaves the database alone', async () => {
    const runs = RUNS[kind];
    const targets = new Map<string, CollectedRoute>();
    for (const r of collected) {
      const key = `${r.method} ${r.url}`;
      if (r.method === 'HEAD' || targets.has(key)) continue;
      targets.set(key, r);
    }
    const hasInput = (r: CollectedRoute, key: string) =>
      isZod(r.schema?.body) || isZod(r.schema?.querystring) || isZod(r.schema?.params) || !!FORM_ROUTES[key];
    // Admin actions that end sessions (withdrawing a verification) run last, so they cannot shorten the rest.
    // BAD_INPUT_ONLY=<part of a route> narrows a local run to some routes (the count check then skips the rest).
    const only = process.env.BAD_INPUT_ONLY;
    const order = [...targets.keys()]
      .filter((k) => !only || k.includes(only))
      .sort((a, b) => Number(a.includes('verifylawyer')) - Number(b.includes('verifylawyer')));
    const failures: string[] = [];
    /** Every refusal: JSON `{ status: "fail", message }`, no stack trace. */
    const checkRefusal = (label: string, res: { statusCode: number; body: string; json(): unknown }) => {
      let json: { status?: unknown; message?: unknown } = {};
      try {
        json = res.json() as typeof json;
      } catch {
        failures.push(`${label}: ${res.statusCode} answer is not JSON: ${res.body.slice(0, 100)}`);
      }
      if (json.status !== 'fail' || typeof json.message !== 'string')
        failures.push(`${label}: ${res.statusCode} without { status: "fail", message }: ${res.body.slice(0, 200)}`);
      if (STACK.test(res.body)) failures.push(`${label}: stack trace in ${res.body.slice(0, 200)}`);
    };

    /** What a route's own role needs so its handler gets past "nothing to do" (404) to the 2xx path. */
    const prepare: Record<string, (headers: Record<string, string>) => Promise<unknown>> = {
      'POST /api/checkout': async (headers) => {
        // A product of its own (the fuzzing before may have deleted the first one) in the company's cart.
        const form = await multipart([
          { name: 'productName', value: 'Board Resolution' },
          { name: 'productPrice', value: '15000' },
          { name: 'productDescription', value: 'For the junk checkout.' },
          { name: 'productImage', file: { data: pngBytes(), filename: 'p.png', type: 'image/png' } },
        ]);
        const created = await t.app.inject({
          method: 'POST',
          url: '/api/create',
          headers: { ...who.admin.headers, ...form.headers },
          payload: form.payload,
        });
        const productId = created.json().data.product._id as string;
        const added = await t.app.inject({
          method: 'POST',
          url: '/api/cart',
          headers,
          payload: { productId, file: known.url[0] },
        });
        expect(added.statusCode, added.body).toBe(201);
      },
      'POST /api/send-otp': async (headers) => {
        const saved = await t.app.inject({
          method: 'POST',
          url: '/api/add-payment-details',
          headers,
          payload: { accountNumber: '0123456789', accountName: 'Chidi Okeke', bank: 'Zenith Bank' },
        });
        expect([201, 409], saved.body).toContain(saved.statusCode);
      },
    };
    /**
     * A route without an input schema: junk queries, bodies and wildcard tails, as its role and as the
     * other side. Refusals are checked as above and against the database; a 2xx (or 3xx) must be the
     * answer the same caller gets without the junk (exactly when that answer is repeatable, else the same
     * status class and JSON keys); a read (GET) must leave the database exactly as it found it.
     */
    const junkRoute = async (key: string, route: CollectedRoute) => {
      const role = allowedActor(key);
      const other: Actor = role === 'guest' ? 'companyA' : 'guest';
      const isRead = route.method === 'GET';
      const wildcard = route.url.endsWith('*');
      const logout = key === 'POST /api/logout';
      const arb: fc.Arbitrary<Omit<JunkCase, 'as'>> = fc
        .record({
          query: fc.option(junkQuery(hostileScalar, known.id), { nil: undefined, freq: 3 }),
          body: fc.option(junkBody(hostile, rawBodies), { nil: undefined, freq: 4 }),
          rest: wildcard ? junkRest(hostileScalar) : fc.constant(undefined),
          headers: key === 'POST /api/payments/webhook' ? junkWebhookHeaders : fc.constant(undefined),
        })
        .filter((c) => c.query !== undefined || c.body !== undefined || c.rest !== undefined);
      const seed = SEED ^ Number.parseInt(createHash('sha1').update(key).digest('hex').slice(0, 7), 16);
      // `runs` cases in all, every sixth from the other side.
      const cases: JunkCase[] = fc
        .sample(arb, { numRuns: runs, seed })
        .map((c, i) => ({ ...c, as: i % 6 === 5 ? ('other' as const) : ('role' as const) }));

      // Logging out ends the session it is sent with: each signed-in logout gets a session of its own.
      const sessions: string[] = [];
      if (logout) {
        const issuer = createAuth({ db: t.rt.database.db, secret: t.rt.secret, clock: t.clock, ttlHours: 12 });
        const [user] = await t.rt.database.db
          .select()
          .from(users)
          // Logout answers guests too (idempotent, issue 14): its signed-in side is company A.
          .where(eq(users.id, who.companyA.id));
        for (let i = 0; i < cases.length + 2; i++) sessions.push((await issuer.issue(user)).token);
      }
      const headersOf = (actor: Actor): Record<string, string> =>
        actor === 'guest' ? {} : logout ? { authorization: `Bearer ${sessions.pop()!}` } : { ...who[actor].headers };
      const wildcardPath = (c: JunkCase | undefined) => route.url.replace(/\*$/, c?.rest ?? 'index.css');
      const send = (c: JunkCase | undefined, auth: Record<string, string>) => {
        const path = wildcard ? wildcardPath(c) : route.url;
        const headers = { ...auth, ...c?.headers };
        if (c?.body?.type !== undefined) headers['content-type'] = c.body.type;
        return t.app.inject({
          method: route.method as 'GET',
          url: c?.query === undefined ? path : `${path}?${c.query}`,
          headers,
          ...(c?.body ? { payload: c.body.payload } : {}),
        });
      };

      await prepare[key]?.(role === 'guest' ? {} : who[role].headers);
      const plain: Partial<Record<Actor, { status: number; body: string; stable: boolean }>> = {};
      for (const actor of [role, other]) {
        const a = await send(undefined, headersOf(actor));
        const b = await send(undefined, headersOf(actor));
        if (a.statusCode >= 500) failures.push(`${key} as ${actor} without junk: ${a.statusCode}`);
        plain[actor] = {
          status: a.statusCode,
          body: a.body,
          stable: a.statusCode === b.statusCode && a.body === b.body,
        };
      }
      const keysOf = (body: string) => {
        try {
          const v: unknown = JSON.parse(body);
          return v && typeof v === 'object' ? JSON.stringify([Object.keys(v).sort(), (v as Json).status]) : typeof v;
        } catch {
          return 'not json';
        }
      };

      const statuses: Record<number, number> = {};
      const started = Date.now();
      const start = await checksumOf(t, tables);
      let before = start;
      let checked = 1;
      for (const c of cases) {
        const actor = c.as === 'role' ? role : other;
        const auth = headersOf(actor);
        const res = await send(c, auth);
        statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
        const label = `${key} as ${actor} ${c.rest?.slice(0, 80) ?? ''}?${(c.query ?? '').slice(0, 100)} ${c.body?.type ?? '-'} ${String(c.body?.payload ?? '').slice(0, 100)}`;
        if (res.statusCode >= 500) failures.push(`${label}: ${res.statusCode} ${res.body.slice(0, 200)}`);
        if (res.statusCode >= 400) {
          checkRefusal(label, res);
          // A read must change nothing at all: its start and end checksums (below) say so for all its cases.
          if (!isRead) {
            const now = await checksumOf(t, tables);
            checked++;
            if (now !== before) failures.push(`${label}: refused with ${res.statusCode} but the database changed`);
            before = now;
          }
        } else {
          const location = res.headers.location;
          if (typeof location === 'string' && !/^\/(?!\/)|^\.\//.test(location))
            failures.push(`${label}: redirects off the site to ${location.slice(0, 100)}`);
          const base = plain[actor]!;
          if (wildcard && res.statusCode < 300) {
            const sent = new URL(wildcardPath(c), 'http://localhost').pathname;
            const wrong = staticFileServed(route.url.slice(0, -1), sent, res.rawPayload);
            if (wrong) failures.push(`${label}: ${wrong}`);
          } else if (
            base.stable
              ? res.statusCode !== base.status || res.body !== base.body
              : Math.floor(res.statusCode / 100) !== Math.floor(base.status / 100) ||
                keysOf(res.body) !== keysOf(base.body)
          )
            failures.push(
              `${label}: ${res.statusCode} ${res.body.slice(0, 120)} differs from the plain answer ${base.status} ${base.body.slice(0, 120)}`,
            );
          if (logout) {
            const after = await t.app.inject({
              method: 'GET',
              url: '/api/cart',
              headers: auth,
            });
            if (after.statusCode !== 401)
              failures.push(
                `${label}: logged out with ${res.statusCode} but the token still answers ${after.statusCode}`,
              );
          }
          if (!isRead) {
            before = await checksumOf(t, tables);
            checked++;
          }
        }
        if (failures.length > 40) break;
      }
      const end = await checksumOf(t, tables);
      if (end !== before) failures.push(`${key}: the database changed`);
      if (isRead && end !== start) failures.push(`${key}: a read changed the database`);
      report.push({ route: key, cases: cases.length, statuses, checked, ms: Date.now() - started, junk: true });
    };

    for (const key of order) {
      const route = targets.get(key)!;
      if (!hasInput(route, key)) {
        await junkRoute(key, route);
        if (failures.length > 40) break;
        continue;
      }
      const actor = allowedActor(key);
      const headers = actor === 'guest' ? {} : who[actor].headers;
      const body = isZod(route.schema?.body) ? (route.schema!.body as z.ZodType) : undefined;
      const query = isZod(route.schema?.querystring) ? (route.schema!.querystring as z.ZodType) : undefined;
      const params = isZod(route.schema?.params) ? (route.schema!.params as z.ZodType) : undefined;
      const bodyJs = body && jsonSchemaOf(body);
      const paramNames = [...route.url.matchAll(/:(\w+)/g)].map((m) => m[1]);
      const paramsJs = params ? jsonSchemaOf(params) : undefined;
      const form = FORM_ROUTES[key];

      const caseArb = fc.record({
        params: fc.tuple(
          ...paramNames.map((p) =>
            fc.oneof(
              { weight: 2, arbitrary: paramValue(paramsJs?.properties?.[p] ?? {}, p, known) },
              { weight: 1, arbitrary: fc.constantFrom(...(known[p] ?? known.id)) },
            ),
          ),
        ),
        query: fc.option(queryString(query && jsonSchemaOf(query), known), { nil: undefined, freq: 4 }),
        body: bodyJs
          ? fc.oneof(
              { weight: 5, arbitrary: malformed(bodyJs, known).map((value) => ({ json: true as const, value })) },
              { weight: 1, arbitrary: plausible(bodyJs, '', known).map((value) => ({ json: true as const, value })) },
              { weight: 2, arbitrary: rawBodies.map((raw) => ({ json: false as const, raw })) },
            )
          : fc.constant(undefined),
        form: form ? formBodies(form, known).map((f) => f) : fc.constant(undefined),
      });
      const seed = SEED ^ Number.parseInt(createHash('sha1').update(key).digest('hex').slice(0, 7), 16);
      const cases = fc.sample(caseArb, { numRuns: runs, seed });
      const statuses: Record<number, number> = {};
      const ignoreCodeTries = CODE_ROUTES.has(key);
      const started = Date.now();
      let checked = 0;
      let before = await checksumOf(t, tables, ignoreCodeTries);

      for (const c of cases) {
        const path = route.url.replace(/:(\w+)/g, (_m, p: string) => c.params[paramNames.indexOf(p)] ?? '');
        const url = c.query === undefined ? path : `${path}?${c.query}`;
        let payload: string | Buffer | undefined;
        let reqHeaders: Record<string, string> = { ...headers };
        let expected400 = false;
        if (c.form && form) {
          const built = await buildForm(c.form, form);
          payload = built.payload;
          reqHeaders = { ...reqHeaders, ...built.headers };
        } else if (c.body?.json) {
          const text = JSON.stringify(c.body.value);
          if (text !== undefined) {
            payload = text;
            reqHeaders['content-type'] = 'application/json';
            const seen: unknown = JSON.parse(text);
            // Only when the path reaches the route at all ('..' is resolved away, long ids get 414 first).
            const reachable = c.params.every((p) => p !== '' && p.length <= 200 && !/^(\.|%2e)+$/i.test(p));
            expected400 = reachable && !body!.safeParse(seen).success && text.length < 1024 * 1024;
          }
        } else if (c.body) {
          payload = c.body.raw.payload;
          reqHeaders['content-type'] = c.body.raw.type;
        }
        const res = await t.app.inject({
          method: route.method as 'GET',
          url,
          headers: reqHeaders,
          ...(payload !== undefined ? { payload } : {}),
        });
        statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
        const label = `${key} ${url.slice(0, 120)} ${String(payload ?? '').slice(0, 160)}`;
        if (res.statusCode >= 500) failures.push(`${label}: ${res.statusCode} ${res.body.slice(0, 200)}`);
        if (res.statusCode >= 400) checkRefusal(label, res);
        if (expected400 && res.statusCode !== 400 && res.statusCode !== 413)
          failures.push(`${label}: the schema refuses this body but the answer was ${res.statusCode}`);
        // The database moves only with accepted requests: a checksum of every table after each request
        // that reached a handler. (A schema refusal, 400 with `issues`, is answered before any handler runs.)
        const schemaRefusal = res.statusCode === 400 && res.body.includes('"issues"');
        if (!schemaRefusal) {
          const now = await checksumOf(t, tables, ignoreCodeTries);
          if (res.statusCode >= 400 && now !== before)
            failures.push(`${label}: refused with ${res.statusCode} but the database changed`);
          before = now;
          checked++;
        }
        if (failures.length > 40) break;
      }
      // And the schema refusals in between changed nothing either.
      if ((await checksumOf(t, tables, ignoreCodeTries)) !== before) failures.push(`${key}: the database changed`);
      report.push({ route: key, cases: cases.length, statuses, checked, ms: Date.now() - started });
      if (failures.length > 40) break;
    }
    expect(failures.slice(0, 40)).toEqual([]);
    for (const r of report) expect(r.cases, r.route).toBeGreaterThanOrEqual(runs);
    // Every registered route had its turn.
    if (!only) expect(report.map((r) => r.route).sort()).toEqual(routeKeys([...targets.values()]));
  }, 600_000);
});
