import { readFile } from 'node:fs/promises';
import path from 'node:path';

/** dist/.vite/preloads.json as the web build writes it (apps/web/scripts/page-preloads.mjs). */
interface PreloadsFile {
  pages: Array<{ path: string; modules: string[] }>;
}

const ASSET = /^\/assets\/[A-Za-z0-9._-]+\.js$/;
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * index.html for one page path: with `<link rel="modulepreload">` for that page's own chunks, so a
 * phone asks for them together with the entry instead of after the entry has arrived and run (on a
 * 150 ms round trip, 0.5-1 s sooner on /products, /pre-cart and /cart). Paths without a known page,
 * or a build without preloads.json, get index.html as it is. Worked out once per page at start-up.
 */
export async function pagePreloads(dist: string, indexHtml: string): Promise<(url: string) => string> {
  let file: PreloadsFile;
  try {
    file = JSON.parse(await readFile(path.join(dist, '.vite', 'preloads.json'), 'utf8')) as PreloadsFile;
  } catch {
    return () => indexHtml;
  }
  const pages = file.pages.map((page) => {
    const links = page.modules
      .filter((m) => ASSET.test(m))
      .map((m) => `<link rel="modulepreload" crossorigin href="${m}">`)
      .join('');
    const segments = page.path.split('/').map((s) => (s.startsWith(':') ? '[^/]+' : escapeRegExp(s)));
    return {
      pattern: new RegExp(`^${segments.join('/')}/?$`),
      html: indexHtml.replace('</head>', `${links}</head>`),
    };
  });
  return (url) => pages.find((p) => p.pattern.test(url))?.html ?? indexHtml;
}
