/**
 * The path prefixes the API owns, in one table: app.ts answers an unknown path under any of them with a
 * JSON 404 rather than the web app's index.html, and security-headers.ts gives the ones that return API
 * answers (`answers: true`) the API's headers instead of the page set.
 */
const API_PATHS: readonly { prefix: string; answers: boolean }[] = [
  { prefix: '/api', answers: true },
  { prefix: '/product-api', answers: true },
  { prefix: '/job-api', answers: true },
  { prefix: '/ratings-api', answers: true },
  { prefix: '/dev', answers: false },
  { prefix: '/uploads', answers: false },
];

const API_PREFIXES: readonly string[] = API_PATHS.map((p) => p.prefix);

/** The path as the router reads it (`ignoreDuplicateSlashes`): each run of slashes is one (decision 2304). */
export const singleSlashes = (url: string) => (url.includes('//') ? url.replace(/\/{2,}/g, '/') : url);

/** An absolute-form request target's origin (`GET http://host/api/x HTTP/1.1`), which the router drops. */
const ORIGIN = /^https?:\/\/[^/?#]*/i;

/**
 * Whether a request target is a path or an absolute URL. The router skips any other target's first
 * character unread (`*api/x` is matched as `/api/x`), where the checks here would read no API path.
 */
export const isPathOrUrl = (url: string): boolean => url.startsWith('/') || ORIGIN.test(url);

/**
 * The path as the router (find-my-way) matches it: without the origin of an absolute-form target, the
 * query cut off, percent-escapes decoded as it decodes them (decodeURI: `/%61pi/x` is `/api/x`; an escaped
 * `/`, `?`, `#` or `%` stays escaped), each run of slashes one. Read raw, `/%61pi/userprofile` and
 * `http://host/api/userprofile` reached the route with the page headers, without `cache-control:
 * private, no-store` (2304 read doubled slashes only). A malformed escape is left as sent: the router
 * refuses it (frameworkErrors).
 */
export function routerPath(url: string): string {
  // Cut at `?` and at `#` as the slow path does (and the router): `/api#x` is `/api`.
  if (url.startsWith('/') && !/[%?#]/.test(url)) return singleSlashes(url);
  const origin = url.startsWith('/') ? null : ORIGIN.exec(url);
  const target = origin ? url.slice(origin[0].length) : url;
  const end = target.search(/[?#]/);
  const path = singleSlashes((end < 0 ? target : target.slice(0, end)) || '/');
  if (!path.includes('%')) return path;
  try {
    return singleSlashes(decodeURI(path.replace(/%25/g, '%2525')));
  } catch {
    return path;
  }
}

/** Whether a path (without its query) is the API's, so never the web app's index.html. */
export function isApiPrefixed(path: string): boolean {
  const url = routerPath(path);
  return API_PREFIXES.some((p) => url === p || url.startsWith(`${p}/`));
}

// With the trailing slash, computed once: isApiPath runs on every request.
const ANSWER_PREFIXES: readonly string[] = API_PATHS.filter((p) => p.answers).map((p) => `${p.prefix}/`);

/** Whether a request goes to the API's answers (not a page, not the OpenAPI viewer). */
export function isApiPath(path: string): boolean {
  const url = routerPath(path);
  if (url.startsWith('/api/docs')) return false;
  return ANSWER_PREFIXES.some((p) => url.startsWith(p));
}
