import path from 'node:path';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { inUiChunk } from './ui-chunk';

// The API's address in development: the same PORT the API listens on.
// 127.0.0.1, where the development API listens (`localhost` may resolve to ::1 first).
const api = process.env.VITE_DEV_API ?? `http://127.0.0.1:${process.env.PORT ?? 3000}`;

/**
 * src/early.ts as its own small script, loaded `async` at the top of index.html, ahead of the entry:
 * it asks for the page's data while the app's code is still downloading (see that file).
 */
function earlyScript(): Plugin {
  return {
    name: 'legalmarket-early-script',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const chunk = Object.values(ctx.bundle ?? {}).find(
          (c) => c.type === 'chunk' && c.isEntry && c.name === 'early',
        );
        const src = chunk ? `/${chunk.fileName}` : '/src/early.ts';
        return [
          { tag: 'script', attrs: { type: 'module', async: true, crossorigin: true, src }, injectTo: 'head-prepend' },
        ];
      },
    },
  };
}

/**
 * The brand typeface (src/styles.css) asked for with the HTML, not once the styles have been read:
 * every page's text uses it, so it would otherwise arrive a round trip late and swap in visibly.
 */
function preloadFont(): Plugin {
  return {
    name: 'legalmarket-preload-font',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const font = Object.values(ctx.bundle ?? {}).find(
          (a) => a.type === 'asset' && /plus-jakarta-sans-latin-wght-normal-[\w-]+\.woff2$/.test(a.fileName),
        );
        if (!font) return [];
        return [
          {
            tag: 'link',
            attrs: { rel: 'preload', as: 'font', type: 'font/woff2', crossorigin: true, href: `/${font.fileName}` },
            injectTo: 'head',
          },
        ];
      },
    },
  };
}

/**
 * Files under this size are written into the code as data: URLs. The same in the server build: its markup
 * must be what the browser renders (with its default, 4 KB, the server wrote the 3.4 KB landing hero
 * inline and the browser's code named the file). A file the server means to inline asks with `?inline`.
 */
const ASSETS_INLINE_LIMIT = 2048;

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [react(), tailwindcss(), earlyScript(), preloadFont()],
  resolve: { alias: { '@': path.resolve(import.meta.dirname, 'src') } },
  server: {
    port: 5173,
    proxy: Object.fromEntries(
      ['/api', '/product-api', '/job-api', '/ratings-api', '/dev', '/uploads'].map((p) => [p, api]),
    ),
  },
  // The server build (src/entry-server.tsx into dist/.vite/ssr) carries its dependencies: the API loads
  // it from any copy of dist, with no node_modules next to it.
  ssr: { noExternal: true },
  build: isSsrBuild
    ? {
        target: 'node20',
        sourcemap: false,
        outDir: 'dist/.vite/ssr',
        emptyOutDir: true,
        copyPublicDir: false,
        assetsInlineLimit: ASSETS_INLINE_LIMIT,
      }
    : {
        target: 'es2022',
        sourcemap: false,
        assetsInlineLimit: ASSETS_INLINE_LIMIT,
        manifest: true,
        modulePreload: { polyfill: false },
        rollupOptions: {
          output: {
            // Fewer, larger chunks: on HTTP/1.1 (6 connections) with a phone's 150 ms round trips, every
            // six files cost a round trip (/pre-cart needed 21 besides the entry's 7; now 7 and 3).
            // - query: TanStack Query, loaded by every page that reads data (was seven chunks);
            // - initial: what the entry loads anyway (React, the router, the layout, the landing page), one
            //   file; not the entries themselves (src/early.ts must stay a standalone script);
            // - ui: the shared components and icons of the other pages (7 KB gzip).
            // Dependencies are not pulled into a group (React stays in `initial`); check-bundle guards the
            // first route's size.
            codeSplitting: {
              groups: [
                {
                  // The landing page's sections below its first screen and the few icons they use that the
                  // first route has not: on their own, so / does not fetch `ui` (and through it the query
                  // library, the forms and the schemas) for them. Pages using these icons load it too (3 KB).
                  // With the shared feedback components and the price format (contracts/naira) their cards
                  // show, which the first screen does without.
                  name: 'landing',
                  test: /src[\\/](features[\\/]public[\\/]landing-more|features[\\/]catalogue[\\/]product-(card|facts)|components[\\/]feedback)\.tsx$|contracts[\\/]src[\\/]naira\.ts$|lucide-react[\\/]dist[\\/]esm[\\/]icons[\\/](chevron-left|chevron-right|wallet|users|shield-check|pencil|trash|loader-circle|calendar-clock|star)\.m?js$/,
                  includeDependenciesRecursively: false,
                  // Below `initial`: what the first route has already stays there.
                  priority: 1.5,
                },
                {
                  // What the first route defers to the first page after it: the route table of every page
                  // but the landing page (app/page-routes) with the route guard, the Contact pop-up with the
                  // modal (components/contact-dialog), the small shared modules the entry no longer carries
                  // (the contracts' constants and formats, the reservation writers, lib/random-id), the
                  // zod-free constants that pages showing no form take instead of schema modules
                  // (contracts/terms-version, plan-tiers, vat: alone, a file each) and their icons. One
                  // chunk: every page but the landing page loads it anyway, and / fetches it once idle
                  // (src/main.tsx).
                  // Without the icons it would import `ui` (and through it the query library), which the
                  // terms, privacy and Remuneration Order pages do without.
                  name: 'deferred',
                  test: /src[\\/](app[\\/](page-routes|guard)\.tsx|components[\\/](contact-dialog|modal)\.tsx|lib[\\/]random-id\.ts|features[\\/]cart[\\/]reserved-items\.ts)$|contracts[\\/]src[\\/](constants|format|terms-version|plan-tiers|vat)\.ts$|lucide-react[\\/]dist[\\/]esm[\\/]icons[\\/](shield-exclamation-point|mail)\.m?js$/,
                  includeDependenciesRecursively: false,
                  priority: 1.2,
                },
                {
                  name: 'query',
                  test: /node_modules[\\/]@tanstack[\\/]/,
                  includeDependenciesRecursively: false,
                  priority: 3,
                },
                {
                  name: 'initial',
                  tags: ['$initial'],
                  test: (id) => !/src[\\/](early|main)\.tsx?$|index\.html/.test(id),
                  includeDependenciesRecursively: false,
                  priority: 2,
                },
                {
                  // Without the components that bring form code (ui-chunk.ts): pages that show no form
                  // (/products, /cart) preload no react-hook-form, zod, schemas or two-factor page for them.
                  name: 'ui',
                  test: inUiChunk,
                  includeDependenciesRecursively: false,
                  priority: 1,
                },
              ],
            },
          },
          input: {
            index: path.resolve(import.meta.dirname, 'index.html'),
            early: path.resolve(import.meta.dirname, 'src/early.ts'),
          },
        },
      },
}));
