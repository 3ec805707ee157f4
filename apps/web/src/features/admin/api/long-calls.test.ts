import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PAYOUT_BATCH_MAX } from '@legalmarket/contracts/payouts';
import { REQUEST_TIMEOUT_MS } from '@/lib/http';
import { approveBudgetMs, PAYOUT_SEND_MS, RECONCILE_TIMEOUT_MS } from './long-calls';

/*
 * The web waits for the admin's provider-bound calls longer than 30 s (decision 2306); nginx in front
 * (deploy/nginx.conf) must wait as long, or the admin gets its 504 for work still going on, and must not
 * pass them to another instance on a timeout, which runs the work a second time.
 */
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../../..');
const conf = readFileSync(path.join(repo, 'deploy/nginx.conf'), 'utf8');

interface Location {
  modifier: string;
  match: string;
  body: string;
}
const locations: Location[] = [...conf.matchAll(/^\s*location\s+(=|~\*?|\^~)?\s*(\S+)\s*\{([^}]*)\}/gm)].map(
  ([, modifier = '', match, body]) => ({ modifier, match, body }),
);
const outside = conf.replace(/^\s*location\s[^{]*\{[^}]*\}/gm, '');

/** nginx's choice: an exact match, else the longest prefix unless a regex (in order) matches the path. */
function locationFor(uri: string): Location {
  const exact = locations.find((l) => l.modifier === '=' && l.match === uri);
  if (exact) return exact;
  const prefix = locations
    .filter((l) => (l.modifier === '' || l.modifier === '^~') && uri.startsWith(l.match))
    .sort((a, b) => b.match.length - a.match.length)[0];
  if (prefix?.modifier === '^~') return prefix;
  const regex = locations.find(
    (l) => l.modifier.startsWith('~') && new RegExp(l.match, l.modifier === '~*' ? 'i' : '').test(uri),
  );
  const found = regex ?? prefix;
  if (!found) throw new Error(`no location serves ${uri}`);
  return found;
}

const directive = (text: string, name: string) =>
  text.match(new RegExp(`^\\s*${name}\\s+([^;]+);`, 'm'))?.[1].trim() ?? null;
const SECONDS: Record<string, number> = { ms: 0.001, s: 1, m: 60, h: 3600 };
/** The location's proxy_read_timeout in ms: its own, else the server's, else nginx's 60 s. */
function readTimeoutMs(l: Location) {
  const value = directive(l.body, 'proxy_read_timeout') ?? directive(outside, 'proxy_read_timeout') ?? '60s';
  const [, n, unit = 's'] = value.match(/^(\d+)(ms|s|m|h)?$/)!;
  return Number(n) * SECONDS[unit] * 1000;
}
/** What makes nginx pass the request to another instance (nginx's default: error and timeout). */
const nextUpstream = (l: Location) =>
  (directive(l.body, 'proxy_next_upstream') ?? directive(outside, 'proxy_next_upstream') ?? 'error timeout').split(
    /\s+/,
  );

const longCalls = [
  { uri: '/api/admin/reconciliation', webMs: RECONCILE_TIMEOUT_MS },
  { uri: '/api/admin/reconciliation/', webMs: RECONCILE_TIMEOUT_MS },
  { uri: '/api/admin/payouts/approve', webMs: approveBudgetMs(PAYOUT_BATCH_MAX) },
  { uri: '/api/admin/payouts/5b0f2d4e-1f7a-4c1e-9d53-0a8f3e2b7c61/approve', webMs: approveBudgetMs(1) },
];

describe("deploy/nginx.conf and the admin's long calls", () => {
  it.each(longCalls)('waits for $uri at least as long as the web does', ({ uri, webMs }) => {
    expect(readTimeoutMs(locationFor(uri))).toBeGreaterThanOrEqual(webMs);
  });

  it.each(longCalls)('never runs $uri again on another instance after a timeout or its 503', ({ uri }) => {
    const on = nextUpstream(locationFor(uri));
    expect(on).not.toContain('timeout');
    expect(on).not.toContain('http_503');
    expect(on).not.toContain('non_idempotent');
    expect(directive(locationFor(uri).body, 'proxy_pass')).toBe('http://legalmarket');
  });

  it('keeps the 60 s and the retry elsewhere for the other calls', () => {
    const other = locationFor('/api/admin/payouts');
    expect(readTimeoutMs(other)).toBe(60_000);
    expect(nextUpstream(other)).toContain('timeout');
  });

  it('overwrites X-Forwarded-For for every location (a location setting a header of its own drops it)', () => {
    expect(directive(outside, 'proxy_set_header X-Forwarded-For')).toBe('$remote_addr');
    for (const l of locations) expect(directive(l.body, 'proxy_set_header')).toBeNull();
  });
});

describe("a payout's send in the batch budget", () => {
  it("covers the API's three tries of 10 s and the pauses between them", () => {
    // apps/api/src/features/money/payouts.ts: SEND_RETRIES_MS = [200, 1000], each try up to 10 s.
    expect(PAYOUT_SEND_MS).toBeGreaterThanOrEqual(3 * 10_000 + 200 + 1000);
    expect(approveBudgetMs(3)).toBe(REQUEST_TIMEOUT_MS + 3 * PAYOUT_SEND_MS);
  });
});
