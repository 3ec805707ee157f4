import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

const CART_PAGE = /^\/cart\/?$/;

/**
 * The cart /cart is rendered with for a request's Cookie header (its owner, and the cart as
 * GET /api/cart answers it, an empty one as `[]`), or null: the shell (decision 2100).
 */
export type CartOfPage = (cookieHeader: string | undefined) => Promise<{ userId: string; text: string } | null>;

/** A page's HTML, and whether it carries one signed-in user's data (then `private, no-store`). */
export interface FirstPage {
  html: string;
  personal: boolean;
}

/** The server build of apps/web/src/entry-server.tsx, as the web build writes it into dist/.vite/ssr. */
interface PageRenderer {
  /** `search` (`?q=...` or ''): the address's query; /products renders its filters from it. */
  render(pathname: string, data?: { url: string; body: unknown }, search?: string): Promise<string>;
  pageDataUrl(pathname: string, userType: string | null, search?: string): string | null;
}

/**
 * The pages rendered on the server: public ones, as a visitor sees them, and /cart: a signed-in
 * company's cart when its page cookie names a live session (decision 2100), else the cart's shell (its
 * heading and layout; the browser shows the cart once the page's code runs, decision 1850). A page with
 * one user's data is answered `private, no-store` and never reused for another request.
 */
const RENDERED = [/^\/(home\/?)?$/, /^\/products\/?$/, /^\/pre-cart\/[^/]+\/?$/, CART_PAGE];

/**
 * The first picture of a rendered page asked for with high priority (its src as React wrote it), unless
 * the HTML carries it already (a data: URL: the landing's hero).
 */
const FIRST_PICTURE = /<img src="(?!data:)([^"]+)"[^>]*fetchPriority="high"/;

const escapeAttr = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

async function loadRenderer(dist: string): Promise<PageRenderer | null> {
  const file = path.join(dist, '.vite', 'ssr', 'entry-server.js');
  if (!existsSync(file)) return null;
  return (await import(pathToFileURL(file).href)) as PageRenderer;
}

const STYLESHEET = /<link rel="stylesheet" crossorigin href="(\/assets\/[A-Za-z0-9._-]+\.css)">/g;
const FONT_PRELOAD = /<link rel="preload" as="font"[^>]*>/g;

/**
 * index.html's stylesheets written into the page: a rendered page then paints as soon as its HTML is
 * in, instead of one round trip later, while the app's code still downloads (7 KB brotli, all of it).
 * The typeface's preload goes: with the styles inline the font is asked for at the first layout, a
 * moment after the HTML, and Chromium holds the first paint for a preloaded font (on the landing page
 * 100-150 ms after its HTML was in, issue 15). The text paints in the fallback sized like it, then swaps.
 */
async function inlineStyles(dist: string, html: string): Promise<string> {
  let out = html;
  for (const m of html.matchAll(STYLESHEET)) {
    const css = await readFile(path.join(dist, m[1]), 'utf8').catch(() => null);
    if (css === null || css.includes('</style')) return html;
    out = out.replace(m[0], () => `<style>${css}</style>`);
  }
  return out === html ? html : out.replace(FONT_PRELOAD, '');
}

/**
 * A page rendered lately, reused for the same address while the data it was rendered from (read again
 * for every request) is the same text and the page is under a minute old (what else a render reads, the
 * footer's year, moves with time). The landing page takes 10-20 ms of the server's time to render, the
 * rest of its answer 2-3 ms; it is the page most visits begin with (issue 15, decision 1850).
 */
interface Rendered {
  data: string;
  html: string;
  page: string;
  at: number;
}
const RECENT_PAGES = 32;
const RECENT_MS = 60_000;

/**
 * index.html with the page at `url` rendered into #root and the data it shows in a JSON script at the
 * end of the body (read by src/early.ts once the HTML is parsed: at the end, it does not hold back the
 * pictures the markup asks for), so the largest element paints from the HTML. The data is the API's
 * own response to the GET the page would send. Any other path, a failed GET (the page shows its own
 * error) or a failed render answers `html` as it is: the app then renders in the browser.
 */
export async function firstPage(app: FastifyInstance, dist: string | null, cartOf?: CartOfPage) {
  const renderer = dist ? await loadRenderer(dist) : null;
  const styled = new Map<string, Promise<string>>();
  const recent = new Map<string, Rendered>();
  return async (url: string, html: string, cookie?: string): Promise<FirstPage> => {
    const at = url.indexOf('?');
    const pathname = at < 0 ? url : url.slice(0, at);
    const query = at < 0 ? '' : url.slice(at + 1);
    const asIs = { html, personal: false };
    if (!renderer || !RENDERED.some((r) => r.test(pathname)) || !html.includes('<div id="root"></div>')) return asIs;
    try {
      const cart = CART_PAGE.test(pathname) && cartOf ? await cartOf(cookie) : null;
      // /products?q=&area=&min=&max= is rendered filtered: its data is the filtered list.
      const dataUrl = cart ? '/api/cart' : renderer.pageDataUrl(pathname, null, query ? `?${query}` : '');
      const res =
        dataUrl && !cart
          ? await app.inject({ method: 'GET', url: dataUrl, headers: { accept: 'application/json' } })
          : null;
      if (res && res.statusCode !== 200) return asIs;
      const dataText = cart?.text ?? res?.body ?? '';
      const kept = cart ? undefined : recent.get(url);
      if (kept && kept.data === dataText && kept.html === html && Date.now() - kept.at < RECENT_MS)
        return { html: kept.page, personal: false };
      const data = dataUrl && (cart || res) ? { url: dataUrl, body: JSON.parse(dataText) as unknown } : undefined;
      // `<` only occurs inside JSON strings, where \u003c reads the same: no `</script>` can close the tag.
      // A cart names its owner: the browser takes it only for the session it keeps (src/early.ts).
      const owner = cart ? ` data-user="${escapeAttr(cart.userId)}"` : '';
      const dataTag = data
        ? `<script type="application/json" id="page-data" data-url="${escapeAttr(data.url)}"${owner}>${dataText.replace(/</g, '\\u003c')}</script>`
        : '';
      const markup = await renderer.render(pathname, data, query ? `?${query}` : '');
      if (!styled.has(html)) styled.set(html, inlineStyles(dist!, html));
      const page = await styled.get(html)!;
      // The marker goes first in <head>: src/early.ts, loaded async right after, waits for the data
      // instead of asking for it. A picture the page fetches first (/products' first card, its largest
      // element) is asked for before the app's code, which would otherwise share the phone's bandwidth.
      const picture = FIRST_PICTURE.exec(markup)?.[1];
      const head = `<head>${dataTag ? '<meta name="page-data">' : ''}${picture ? `<link rel="preload" as="image" href="${picture}" fetchpriority="high">` : ''}`;
      const out = page
        .replace('<head>', () => head)
        .replace('<div id="root"></div>', () => `<div id="root">${markup}</div>`)
        .replace('</body>', () => `${dataTag}</body>`);
      if (cart) return { html: out, personal: true };
      recent.delete(url);
      recent.set(url, { data: dataText, html, page: out, at: Date.now() });
      if (recent.size > RECENT_PAGES) recent.delete(recent.keys().next().value!);
      return { html: out, personal: false };
    } catch (err) {
      app.log.warn({ err, url: pathname }, 'first page not rendered on the server');
      return asIs;
    }
  };
}

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * A page's HTML, compressed here: the server's compression does not reach the not-found handler that
 * answers page paths, and a rendered page carries its markup, styles and data (/products: 180 KB, 25 KB
 * in brotli). Quality 5: a few milliseconds per page, most of what quality 11 saves.
 */
export async function sendHtml(request: FastifyRequest, reply: FastifyReply, html: string) {
  const vary = reply.getHeader('vary');
  reply.type('text/html; charset=utf-8').header('vary', vary ? `${String(vary)}, accept-encoding` : 'accept-encoding');
  const accepted = String(request.headers['accept-encoding'] ?? '');
  if (html.length < 1024) return reply.send(html);
  if (/\bbr\b/.test(accepted))
    return reply
      .header('content-encoding', 'br')
      .send(await brotli(html, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } }));
  if (/\bgzip\b/.test(accepted)) return reply.header('content-encoding', 'gzip').send(await gzip(html));
  return reply.send(html);
}
