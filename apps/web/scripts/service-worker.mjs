#!/usr/bin/env node
// After `vite build`: writes dist/sw.js, the service worker (Workbox's generateSW, its runtime inlined:
// one file). What it keeps and what it never keeps: docs/decisions/1840-service-worker-and-manifest.md.
//
// - Precached (the app shell): the hashed code and styles in assets/, the offline page, the manifest and
//   its icons. index.html is not: the server writes each page's HTML (rendered, with its preloads).
// - Pages: the public pages a visitor reads (/, /home, /products, /pre-cart/{id}, About, the Remuneration
//   Order) network first, the copy kept for when the network fails or takes over 3 s; any other page
//   network only. A navigation that fails with nothing kept gets /offline.html.
// - The catalogue: GET /product-api/... without an Authorization header, stale while revalidating.
// - Nothing else: no /api, /job-api, /ratings-api, /uploads or /dev answer, no request carrying an
//   Authorization header, no other method than GET is ever put in a cache.
import path from 'node:path';
import { generateSW } from 'workbox-build';

const dist = path.resolve(import.meta.dirname, '../dist');

// These functions run in the service worker: workbox-build writes their source into sw.js.
const publicPage = ({ request, url }) =>
  request.mode === 'navigate' &&
  url.origin === self.location.origin &&
  /^\/(home|products|pre-cart\/[^/]+|about-us|legal-practitioners-remuneration-order)?\/?$/.test(url.pathname);
const otherPage = ({ request }) => request.mode === 'navigate';
const catalogue = ({ request, url }) =>
  url.origin === self.location.origin &&
  url.pathname.startsWith('/product-api/') &&
  !request.headers.has('authorization');

const { count, size, warnings } = await generateSW({
  globDirectory: dist,
  globPatterns: [
    'assets/**/*.{js,css,woff2,svg,png,webp,avif}',
    'offline.html',
    'favicon.svg',
    'manifest.webmanifest',
    'icons/*.png',
  ],
  globIgnores: ['.vite/**', '**/*.br', '**/*.gz', 'floor-*.html'],
  swDest: path.join(dist, 'sw.js'),
  mode: 'production',
  sourcemap: false,
  inlineWorkboxRuntime: true,
  // A new build takes over at once: its code is precached whole, and old copies are deleted.
  skipWaiting: true,
  clientsClaim: true,
  cleanupOutdatedCaches: true,
  // A page's HTML is asked for while the worker starts, not after: the network-first pages lose no time.
  navigationPreload: true,
  // Hashed names change with their content: the copy the page already loaded (HTTP cache) will do.
  dontCacheBustURLsMatching: /assets\//,
  runtimeCaching: [
    {
      urlPattern: publicPage,
      handler: 'NetworkFirst',
      options: {
        cacheName: 'lm-pages',
        networkTimeoutSeconds: 3,
        expiration: { maxEntries: 40, maxAgeSeconds: 7 * 24 * 3600 },
        cacheableResponse: { statuses: [200] },
        precacheFallback: { fallbackURL: '/offline.html' },
      },
    },
    {
      urlPattern: otherPage,
      handler: 'NetworkOnly',
      options: { precacheFallback: { fallbackURL: '/offline.html' } },
    },
    {
      urlPattern: catalogue,
      method: 'GET',
      handler: 'StaleWhileRevalidate',
      options: {
        cacheName: 'lm-catalogue',
        expiration: { maxEntries: 100, maxAgeSeconds: 7 * 24 * 3600 },
        cacheableResponse: { statuses: [200] },
      },
    },
  ],
});
// A pattern that matches nothing (the offline page or the manifest gone) fails the build.
if (warnings.length) {
  for (const w of warnings) console.error(`service-worker: ${w}`);
  process.exit(1);
}
console.log(`service-worker: sw.js precaches ${count} files, ${(size / 1024).toFixed(1)} KB`);
