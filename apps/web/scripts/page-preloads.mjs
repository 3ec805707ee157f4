#!/usr/bin/env node
// After `vite build`: writes dist/.vite/preloads.json, the JavaScript each page path needs beyond the
// entry (its lazy chunk, the query cache for pages that read data, and what they import). The server
// puts these in index.html as <link rel="modulepreload"> for that path (apps/api/src/platform/
// page-preloads.ts), so a phone fetches a page's code together with the entry instead of after it has
// run: one round trip and the entry's run time less before the page can render.
//
// The paths come from the route table in src/app/page-routes.tsx (open(...) and guarded(...) of the pages
// in `p`), the chunks from Vite's manifest. The build fails if the route table cannot be read. Every one
// of these pages needs that route table too: app/router loads it with the first page that is not the
// landing page.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'dist');
const manifest = JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8'));
const router = readFileSync(path.join(root, 'src/app/page-routes.tsx'), 'utf8');

const fail = (message) => {
  console.error(`page-preloads: ${message}`);
  process.exit(1);
};

// `name: withData(() => import('@/features/x/y'))` or `name: page(() => import('@/features/x/y'))`.
const pages = new Map();
for (const m of router.matchAll(/(\w+):\s*(withData|page)\(\s*\(\)\s*=>\s*import\('@\/([^']+)'\)\s*\)/g)) {
  const key = [`src/${m[3]}.tsx`, `src/${m[3]}.ts`].find((k) => manifest[k]);
  if (!key) fail(`${m[3]} (page ${m[1]}) is not in the Vite manifest`);
  pages.set(m[1], { key, withData: m[2] === 'withData' });
}
// `open('/path', p.name)` and `guarded('/path', ROLES, p.name)`.
const routes = [...router.matchAll(/(?:open\(\s*'([^']+)'|guarded\(\s*'([^']+)',\s*\w+),\s*p\.(\w+)\s*\)/g)].map(
  (m) => ({ path: m[1] ?? m[2], page: m[3] }),
);
if (pages.size < 10 || routes.length < 10) fail(`read ${pages.size} pages and ${routes.length} routes only`);

const closure = (key, into = new Set()) => {
  const entry = manifest[key];
  if (!entry) fail(`${key} is not in the Vite manifest`);
  if (into.has(entry.file)) return into;
  into.add(entry.file);
  for (const k of entry.imports ?? []) closure(k, into);
  return into;
};
// index.html's entry and src/early.ts, with what they import: index.html loads these itself.
const inEntry = new Set();
for (const k of Object.keys(manifest).filter((key) => manifest[key].isEntry)) closure(k, inEntry);
const dataProvider = 'src/app/data-provider.tsx';
// The route table's chunk (the `deferred` chunk of vite.config.ts, which holds the guard too).
const pageRoutes =
  Object.keys(manifest).find((k) => k === 'src/app/page-routes.tsx') ??
  Object.keys(manifest).find((k) => manifest[k].name === 'deferred');
if (!pageRoutes) fail('the chunk of the route table (src/app/page-routes.tsx) is not in the Vite manifest');

const out = routes.map(({ path: routePath, page }) => {
  const p = pages.get(page);
  if (!p) fail(`route ${routePath} uses p.${page}, which is not a lazy page`);
  const files = closure(p.key);
  closure(pageRoutes, files);
  if (p.withData) closure(dataProvider, files);
  const modules = [...files].filter((f) => f.endsWith('.js') && !inEntry.has(f)).map((f) => `/${f}`);
  return { path: routePath, modules };
});
// The landing page's sections below its first screen (features/public/landing-more.tsx, in the `landing`
// chunk of vite.config.ts), which the page loads before it renders (preloadLanding) but which are not
// part of the first route.
const landingKey = Object.keys(manifest).find((k) => manifest[k].name === 'landing');
if (!landingKey) fail('the landing chunk is not in the Vite manifest');
const landingModules = [...closure(landingKey)].filter((f) => f.endsWith('.js') && !inEntry.has(f)).map((f) => `/${f}`);
for (const landingPath of ['/', '/home']) out.push({ path: landingPath, modules: landingModules });
writeFileSync(path.join(dist, '.vite/preloads.json'), `${JSON.stringify({ pages: out }, null, 1)}\n`);
console.log(`page-preloads: ${out.length} page paths, ${Math.max(...out.map((o) => o.modules.length))} chunks at most`);
