#!/usr/bin/env node
// Fails when the built JavaScript exceeds the budgets (gzipped): the first route `/` at most 100 KB,
// all JavaScript at most 350 KB. A size check, not a timing: the timings live in `npm run bench`.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const FIRST_ROUTE_BUDGET = 100 * 1024;
const TOTAL_BUDGET = 350 * 1024;
const dist = path.resolve('apps/web/dist');
const manifest = JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8'));
const gz = (file) => zlib.gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length;
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;

// The first route: the entries (index.html's, and src/early.ts, which index.html also loads), the
// landing page chunk, and everything they import statically.
const entryKeys = Object.keys(manifest).filter((k) => manifest[k].isEntry);
// The landing page may ship inside the entry or as its own chunk.
const landingKey = Object.keys(manifest).find((k) => k.endsWith('features/public/landing-page.tsx'));
if (!entryKeys.includes('index.html')) {
  console.error('check-bundle: entry chunk not found in the Vite manifest');
  process.exit(1);
}
const seen = new Set();
const walk = (key) => {
  const m = manifest[key];
  if (!m || seen.has(m.file)) return;
  seen.add(m.file);
  for (const k of m.imports ?? []) walk(k);
};
entryKeys.forEach(walk);
if (landingKey) walk(landingKey);
const firstRoute = [...seen].filter((f) => f.endsWith('.js')).reduce((s, f) => s + gz(f), 0);

const assets = readdirSync(path.join(dist, 'assets')).filter((f) => f.endsWith('.js'));
const total = assets.reduce((s, f) => s + gz(`assets/${f}`), 0);

console.log(
  `bundle: first route ${kb(firstRoute)} of ${kb(FIRST_ROUTE_BUDGET)}, all JavaScript ${kb(total)} of ${kb(TOTAL_BUDGET)} (gzip)`,
);
const over = [];
if (firstRoute > FIRST_ROUTE_BUDGET) over.push(`first route ${kb(firstRoute)} > ${kb(FIRST_ROUTE_BUDGET)}`);
if (total > TOTAL_BUDGET) over.push(`all JavaScript ${kb(total)} > ${kb(TOTAL_BUDGET)}`);
if (over.length) {
  console.error(`bundle budget exceeded: ${over.join('; ')}`);
  process.exit(1);
}
