import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import fc from 'fast-check';
import { pngBytes } from '../upload-helpers.js';

/**
 * Junk for the routes that take no input at all (reads, body-less actions, the API docs, the webhook):
 * bad-input.test.ts sends it to every registered route without a zod body, query or params schema, so
 * that every route, not only those with a schema, gets generated malformed requests.
 */
export interface JunkCase {
  /** The route's own role (signed in, so the handler runs), or the other side: a guest, or for a public route a signed-in company. */
  as: 'role' | 'other';
  /** Raw query string (already encoded, or deliberately broken). */
  query?: string;
  /** A body; `type` undefined sends it without a content type. */
  body?: { payload: string | Buffer; type?: string };
  /** What replaces the `*` of a wildcard route. */
  rest?: string;
  /** Extra request headers (forged webhook signatures). */
  headers?: Record<string, string>;
}

/** Code points no text column can hold: NUL, and surrogates without their pair (issue 14, item 5). */
export const UNSAFE_CODE_POINTS = ['\u0000', '\ud800', '\udbff', '\udc00', '\udfff'] as const;

/** Text with one such code point somewhere in it (start, middle or end of otherwise ordinary text). */
export const unsafeText = (codePoints: readonly string[] = UNSAFE_CODE_POINTS): fc.Arbitrary<string> =>
  fc
    .tuple(
      fc.string({ unit: 'grapheme', maxLength: 12 }),
      fc.constantFrom(...codePoints),
      fc.string({ unit: 'grapheme', maxLength: 12 }),
    )
    .map(([before, bad, after]) => `${before}${bad}${after}`);

const text = (v: unknown) => (typeof v === 'string' ? v : (JSON.stringify(v) ?? String(v)));
/** Percent-encodes anything (lone surrogates become U+FFFD first, as a browser sends them). */
const encode = (v: string) => encodeURIComponent(Buffer.from(v, 'utf8').toString('utf8'));

/** Names a handler might read, names that pollute prototypes, and bracket syntaxes other parsers expand. */
const QUERY_KEYS = [
  'page',
  'limit',
  'sort',
  'order',
  'q',
  'search',
  'status',
  'id',
  '_id',
  'userType',
  'role',
  'verified',
  'companyId',
  'lawyerId',
  'productId',
  'format',
  'to',
  'kind',
  't',
  '__proto__',
  'constructor',
  'prototype',
  '__proto__[isAdmin]',
  'constructor[prototype][isAdmin]',
  'a[]',
  'a[0]',
  'a[b][c]',
  'page[$gt]',
  'toString',
  'valueOf',
  'hasOwnProperty',
  '',
];

/** Query strings written by hand: broken percent-encoding, invalid UTF-8, odd separators, floods. */
const RAW_QUERIES = [
  '%',
  '%%',
  '%zz',
  'a=%',
  'a=%2',
  'a=%zz',
  '%=%',
  'a=%E0%A4%A',
  'a=%ED%A0%80', // a lone surrogate, UTF-8 encoded (invalid UTF-8)
  'a=%C0%AF', // an overlong '/'
  'a=%F4%90%80%80', // past U+10FFFF
  'a=%FF%FE%FD',
  '%EF%BB%BFpage=1', // a BOM in the key
  'a=%E2%80%AE%E2%80%8B',
  'a=e%CC%81',
  'a=%00',
  '%00=1',
  'a=%u0041',
  'a=+%2B+',
  'q=ünïcödé🦄',
  '&&&=&=',
  '=',
  '==',
  'a==b=c',
  ';',
  'a=1;b=2',
  'a=1?b=2',
  '?',
  'a',
  'a&a&a',
  'page=1&page=2&page=-1',
  'page[]=1&page[]=2',
  'page[$gt]=0&status[$ne]=x',
  '__proto__=1',
  '__proto__[isAdmin]=true',
  'constructor[prototype][isAdmin]=true',
  '__proto__.isAdmin=true&constructor.prototype.isAdmin=true',
  'toString=1&valueOf=1&hasOwnProperty=1',
  `a=${'b'.repeat(100_000)}`,
  `${'k'.repeat(50_000)}=1`,
  Array.from({ length: 3000 }, (_, i) => `k${i}=${i}`).join('&'),
  Array.from({ length: 3000 }, () => 'a=1').join('&'),
  '%'.repeat(5000),
  '%25'.repeat(5000),
];

/**
 * Query strings: generated pairs (repeated keys, hostile values up to 2,000 characters, real ids) or
 * hand-written breakage (the huge ones: a 100,000-character value, a 50,000-character key, 3,000 pairs).
 */
export function junkQuery(value: fc.Arbitrary<unknown>, ids: string[]): fc.Arbitrary<string> {
  const pairs = fc
    .array(
      fc.tuple(
        fc.oneof(fc.constantFrom(...QUERY_KEYS), fc.string({ unit: 'grapheme', maxLength: 12 })),
        fc.oneof(
          value.map((v) => text(v).slice(0, 2000)),
          fc.constantFrom(...ids),
        ),
      ),
      { minLength: 1, maxLength: 8 },
    )
    .chain((ps) => fc.nat(3).map((times) => Array.from({ length: times + 1 }, () => ps).flat())) // repeated keys
    .map((ps) => ps.map(([k, v]) => `${encode(k)}=${encode(v)}`).join('&'));
  return fc.oneof({ weight: 3, arbitrary: pairs }, { weight: 2, arbitrary: fc.constantFrom(...RAW_QUERIES) });
}

/** Multipart bytes that are well formed, so only the route (not the parser) can refuse them. */
function multipartBody(): { payload: Buffer; type: string } {
  const b = 'junkboundary';
  const payload = Buffer.concat([
    Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="role"\r\n\r\nadmin\r\n`),
    Buffer.from(
      `--${b}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`,
    ),
    pngBytes(),
    Buffer.from(`\r\n--${b}--\r\n`),
  ]);
  return { payload, type: `multipart/form-data; boundary=${b}` };
}

/** Bodies that are not JSON, or not what they claim, or no media type at all. */
const OTHER_BODIES: Array<{ payload: string | Buffer; type?: string }> = [
  { payload: 'hello', type: 'text/plain' },
  { payload: '{"role":"admin"}', type: 'text/plain' },
  { payload: 'role=admin&__proto__[isAdmin]=true', type: 'application/x-www-form-urlencoded' },
  {
    payload: '<?xml version="1.0"?><!DOCTYPE a [<!ENTITY x SYSTEM "file:///etc/passwd">]><a>&x;</a>',
    type: 'application/xml',
  },
  { payload: '<script>alert(1)</script>', type: 'text/html' },
  { payload: pngBytes(), type: 'image/png' },
  { payload: pngBytes(), type: 'application/octet-stream' },
  { payload: '{"role":"admin"}', type: 'multipart/form-data' },
  multipartBody(),
  { payload: '{"role":"admin"}', type: 'application/json; charset=latin1' },
  { payload: '{"role":"admin"}', type: 'application/json; charset=utf-16' },
  { payload: '{"role":"admin"}', type: 'APPLICATION/JSON' },
  { payload: '{"role":"admin"}', type: 'application/json;;;' },
  { payload: '{"role":"admin"}', type: 'application/vnd.api+json' },
  { payload: '{"role":"admin"}', type: 'json' },
  { payload: '{"role":"admin"}', type: '/' },
  { payload: '{"role":"admin"}', type: 'a/b/c' },
  { payload: '{"role":"admin"}', type: '' },
  { payload: '{"role":"admin"}', type: undefined },
  { payload: Buffer.from([0xff, 0xfe, 0x00, 0x7b]), type: undefined },
  { payload: '\ufeff{"a":1}', type: 'application/json' },
  { payload: '{"a":1}{"a":2}', type: 'application/json' },
  { payload: 'null', type: 'application/json' },
  { payload: '"just a string"', type: 'application/json' },
  { payload: '1e999999', type: 'application/json' },
  { payload: '{"a":"\\ud800"}', type: 'application/json' },
  { payload: '{"a":"x\\u0000y"}', type: 'application/json' },
  { payload: '{"a\\u0000":1,"b":["\\udc00"]}', type: 'application/json' },
  { payload: '{"__proto__":{"isAdmin":true}}', type: 'application/json' },
  { payload: '{"constructor":{"prototype":{"isAdmin":true}}}', type: 'application/json' },
];

/** Deep nesting as raw JSON text (deeper than JSON.stringify would write), some with a pollution key inside. */
const deepJson = fc
  .record({
    depth: fc.integer({ min: 1000, max: 100_000 }),
    obj: fc.boolean(),
    proto: fc.boolean(),
  })
  .map(({ depth, obj, proto }) => {
    const inner = proto ? '{"__proto__":{"isAdmin":true}}' : '1';
    const payload = obj
      ? `${'{"a":'.repeat(depth)}${inner}${'}'.repeat(depth)}`
      : `${'['.repeat(depth)}${inner}${']'.repeat(depth)}`;
    return { payload, type: 'application/json' };
  });

/** Huge JSON: under, near and over the 1 MB body limit (the webhook's is 256 KB). */
const hugeJson = fc
  .constantFrom(200_000, 300_000, 900_000, 1_100_000, 2_000_000)
  .map((n) => ({ payload: JSON.stringify({ a: 'x'.repeat(n) }), type: 'application/json' }));

/** Unexpected bodies: JSON of wrong types, deep, huge, broken, and other media types. */
export function junkBody(
  hostile: fc.Arbitrary<unknown>,
  broken: fc.Arbitrary<{ payload: string; type: string }>,
): fc.Arbitrary<{ payload: string | Buffer; type?: string }> {
  return fc.oneof(
    { weight: 4, arbitrary: hostile.map((v) => ({ payload: JSON.stringify(v) ?? 'null', type: 'application/json' })) },
    {
      weight: 1,
      arbitrary: fc
        .dictionary(fc.constantFrom('role', 'status', 'name', 'q', 'reference'), unsafeText(), {
          minKeys: 1,
          maxKeys: 3,
        })
        .map((v) => ({ payload: JSON.stringify(v), type: 'application/json' })),
    },
    { weight: 1, arbitrary: deepJson },
    { weight: 1, arbitrary: hugeJson },
    { weight: 2, arbitrary: broken },
    { weight: 2, arbitrary: fc.constantFrom(...OTHER_BODIES) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.uint8Array({ maxLength: 512 }), fc.constantFrom('application/json', 'text/plain', undefined))
        .map(([bytes, type]) => ({ payload: Buffer.from(bytes), type })),
    },
  );
}

/** Tails for a wildcard (static files) route: traversal in every spelling, NUL, CRLF, over-long, odd segments. */
const REST = [
  '',
  'index.css',
  'favicon-32x32.png',
  'logo.svg',
  '../package.json',
  '../../package.json',
  '../../../../../../etc/passwd',
  '..%2fpackage.json',
  '..%2F..%2F..%2Fpackage.json',
  '%2e%2e/package.json',
  '%2e%2e%2fpackage.json',
  '..%5cpackage.json',
  '....//....//package.json',
  '..;/package.json',
  '%c0%ae%c0%ae/package.json',
  '%252e%252e/package.json',
  '/etc/passwd',
  '%2fetc%2fpasswd',
  'index.css%00.png',
  'index.css%00',
  '%00',
  'a%0d%0aSet-Cookie:%20x=1',
  '.',
  '..',
  '.env',
  '.%2e',
  'index.css/',
  'index.css/..',
  './index.css',
  'INDEX.CSS',
  'nonexistent.js',
  '%zz',
  '%E0%A4%A',
  'x'.repeat(5000),
  `${'a/'.repeat(1000)}index.css`,
];

export function junkRest(hostile: fc.Arbitrary<unknown>): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 2, arbitrary: fc.constantFrom(...REST) },
    {
      weight: 1,
      arbitrary: fc
        .array(
          hostile.map((v) => encode(text(v).slice(0, 100))),
          { minLength: 1, maxLength: 4 },
        )
        .map((segs) => segs.join('/')),
    },
  );
}

/** Forged webhook signatures: missing, empty, wrong, huge, of the wrong encoding. */
export const junkWebhookHeaders = fc.oneof(
  fc.constant({}),
  fc
    .tuple(
      fc.constantFrom('verif-hash', 'flutterwave-signature'),
      fc.oneof(
        fc.constantFrom('', ' ', 'null', 'undefined', '0', 'x'.repeat(8000), '\t', 'sha256=', 'AAAA', 'Ünï'),
        fc.string({ maxLength: 80 }).map((s) => s.replace(/[^\x20-\x7e]/g, '')),
        fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => Buffer.from(b).toString('base64')),
        fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => Buffer.from(b).toString('hex')),
      ),
    )
    .map(([name, v]) => ({ [name]: v })),
);

/**
 * A 2xx from a static-files wildcard is allowed only for a real file of its folder, byte for byte (a
 * folder answers its index.html): the tail, decoded once as the router does, must stay inside the folder.
 * `pathname` is the path as sent (inject resolves `.` and `..` segments as a browser does, so such a
 * request may reach another route: that answer is not the wildcard's to judge).
 */
const swaggerStatic = path.join(
  path.dirname(createRequire(import.meta.url).resolve('@fastify/swagger-ui/package.json')),
  'static',
);
export function staticFileServed(prefix: string, pathname: string, body: Buffer): string | null {
  if (!pathname.startsWith(prefix)) return null;
  const rest = pathname.slice(prefix.length);
  let decoded: string;
  try {
    decoded = decodeURIComponent(rest);
  } catch {
    return `a 2xx for an undecodable tail ${rest.slice(0, 80)}`;
  }
  let file = path.resolve(swaggerStatic, `.${path.sep}${decoded}`);
  if (file !== swaggerStatic && !file.startsWith(swaggerStatic + path.sep))
    return `a 2xx outside the static folder: ${rest.slice(0, 80)}`;
  if (existsSync(file) && statSync(file).isDirectory()) file = path.join(file, 'index.html');
  if (!existsSync(file) || !statSync(file).isFile()) return `a 2xx for no file: ${rest.slice(0, 80)}`;
  if (!readFileSync(file).equals(body)) return `a 2xx that is not the file's bytes: ${rest.slice(0, 80)}`;
  return null;
}
