import { SESSION_TIMEOUT_MESSAGE } from '@legalmarket/contracts/session-message';
import { TWO_FACTOR } from '@legalmarket/contracts/two-factor-limits';
import { early, type Received } from '@/early';
import { clearSession, getSession } from './session';

export class HttpError extends Error {
  constructor(
    public status: number,
    message: string,
    public body: unknown,
  ) {
    super(message);
  }
}

/** Network failures, in the spec's words. */
class NetworkError extends Error {
  readonly network = true;
  constructor(message = SESSION_TIMEOUT_MESSAGE) {
    super(message);
  }
}

/**
 * A call with no answer in time (decision 2306): a dead mobile connection never fails, it hangs. Still
 * a network error, since the server may have taken the write: callers keep the same key to send again.
 */
class TimeoutError extends NetworkError {
  constructor() {
    super(TIMED_OUT_MESSAGE);
  }
}
export const TIMED_OUT_MESSAGE = 'No answer from the server. Check your connection and try again.';
export const BUSY_MESSAGE = 'The server could not answer just now. Please try again in a moment.';
/** A JSON call's answer, body included, must arrive within this (the answers are small). */
export const REQUEST_TIMEOUT_MS = 30_000;
/** An upload gives up after this long without progress, or without its answer once all is sent. */
export const UPLOAD_STALL_MS = 60_000;

/** Told the id of the user whose session the server ended. */
type UnauthorizedHandler = (userId: string) => void;
let onUnauthorized: UnauthorizedHandler = () => {
  window.location.assign('/login');
};
/** The router installs a handler that navigates without a full reload. */
export const setUnauthorizedHandler = (h: UnauthorizedHandler) => {
  onUnauthorized = h;
};

/**
 * Asked when an action on money answers 428 (decision 2020): resolves true once the user proved a
 * fresh authenticator code, and the request is sent again; false leaves the 428 to the caller.
 */
type StepUpHandler = () => Promise<boolean>;
let onStepUp: StepUpHandler | null = null;
/** The root layout installs the code prompt (components/step-up-prompt.tsx). */
export const setStepUpHandler = (h: StepUpHandler | null) => {
  onStepUp = h;
};

interface RequestOptions {
  method?: string;
  body?: unknown;
  query?: Record<string, string | number | undefined>;
  signal?: AbortSignal;
  /** Don't treat a 401 as "session over" (login itself answers 401 for a wrong password). */
  allowUnauthorized?: boolean;
  /** Told the answer's headers (not for a GET answered by src/early.ts, which keeps none). */
  onHeaders?: (headers: Headers) => void;
  /** Set on the one repeat after a step-up, so a second 428 is not asked again. */
  steppedUp?: boolean;
  /** Sent as they are (an Idempotency-Key). */
  headers?: Record<string, string>;
  /** A call the server answers only after asking a provider page by page waits longer (decision 2306). */
  timeoutMs?: number;
}

function buildUrl(path: string, query?: RequestOptions['query']) {
  const qs = query
    ? Object.entries(query)
        .filter(([, v]) => v !== undefined && v !== '')
        .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
        .join('&')
    : '';
  return qs ? `${path}?${qs}` : path;
}

/**
 * What an error answer without a message of its own says, in words a user understands (decisions 2308,
 * 2329): a proxy's 502/504 page or a busy server says to try again; a 4xx says what went wrong.
 */
export function statusMessage(status: number): string {
  if (status >= 500 || status === 408 || status === 429) return BUSY_MESSAGE;
  switch (status) {
    case 400:
      return 'We could not accept that. Check what you entered and try again.';
    case 401:
      return 'Please log in to continue.';
    case 403:
      return 'You do not have access to that.';
    case 404:
      return 'We could not find that.';
    case 409:
      return 'That changed while you were on this page. Reload it and try again.';
    case 413:
      return 'That is too large to send. Choose a smaller file or shorten the text.';
    default:
      // The status stays, for support: nothing else names the fault.
      return `That did not work (error ${status}). Reload the page and try again.`;
  }
}

function handleFailure(status: number, body: unknown, allowUnauthorized?: boolean): never {
  const fromBody = body && typeof body === 'object' ? (body as { message?: unknown }).message : undefined;
  const said = typeof fromBody === 'string' && fromBody ? fromBody : statusMessage(status);
  // Which of the files sent the answer is about (a missing attachment): with several, the user knows which.
  const file = body && typeof body === 'object' ? (body as { file?: unknown }).file : undefined;
  const message = typeof file === 'string' && file ? `${file}: ${said}` : said;
  const ended = status === 401 && !allowUnauthorized && getSession();
  if (ended) {
    // On 401 the stored session is cleared and the user goes to /login (spec section 8); the drafts
    // stay for the same user's next sign-in (decision 2226).
    clearSession({ keepDrafts: true });
    onUnauthorized(ended.userId);
  }
  throw new HttpError(status, message, body);
}

// GETs asked for before the page's code had run (src/early.ts): each is taken once, by the first api()
// GET of the same URL with the same session within 10 s, or as a query's initial data (takeArrived);
// anything else asks the server itself.
function takeEarly(url: string, arrivedOnly: boolean) {
  const e = early.get(url);
  if (!e || (arrivedOnly && !e.arrived?.ok)) return undefined;
  early.delete(url);
  return e.token === (getSession()?.userToken ?? null) && Date.now() - e.at < 10_000 ? e : undefined;
}

/**
 * The body of a prefetched GET of `url` that has already arrived and succeeded, for a query's
 * initialData: the page then renders with its data in its first render. Taken once; else undefined.
 */
export function takeArrived<T>(url: string): T | undefined {
  const text = takeEarly(url, true)?.arrived?.text;
  try {
    return text ? (JSON.parse(text) as T) : undefined;
  } catch {
    return undefined;
  }
}

/** JSON calls to our API with the bearer token from local storage when present. */
export async function api<T>(path: string, opts: RequestOptions = {}): Promise<T> {
  const session = getSession();
  const isForm = typeof FormData !== 'undefined' && opts.body instanceof FormData;
  const headers: Record<string, string> = { accept: 'application/json', ...opts.headers };
  if (opts.body !== undefined && !isForm) headers['content-type'] = 'application/json';
  if (session) headers.authorization = `Bearer ${session.userToken}`;
  const url = buildUrl(path, opts.query);
  const method = opts.method ?? (opts.body === undefined ? 'GET' : 'POST');
  const taken = method === 'GET' ? takeEarly(url, false) : undefined;
  let res: Received;
  const ctl = new AbortController();
  const stop = () => ctl.abort();
  if (opts.signal?.aborted) stop();
  opts.signal?.addEventListener('abort', stop);
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    res = await Promise.race([
      taken
        ? taken.response
        : fetch(url, {
            method,
            headers,
            body: opts.body === undefined ? undefined : isForm ? (opts.body as FormData) : JSON.stringify(opts.body),
            signal: ctl.signal,
          }).then(async (r) => {
            opts.onHeaders?.(r.headers);
            return { status: r.status, ok: r.ok, text: await r.text() };
          }),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          reject(new TimeoutError());
          stop();
        }, opts.timeoutMs ?? REQUEST_TIMEOUT_MS);
      }),
    ]);
  } catch (err) {
    if (err instanceof NetworkError || (err as Error).name === 'AbortError') throw err;
    throw new NetworkError();
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', stop);
  }
  let body: unknown = undefined;
  try {
    body = res.text ? JSON.parse(res.text) : undefined;
  } catch {
    body = res.text;
  }
  if (res.status === TWO_FACTOR.stepUpStatus && onStepUp && !opts.steppedUp && (await onStepUp()))
    return api<T>(path, { ...opts, steppedUp: true });
  if (!res.ok) handleFailure(res.status, body, opts.allowUnauthorized);
  return body as T;
}

/**
 * A list the server pages with `page` and `limit` and counts in `X-Total-Count` (the answer itself is
 * the spec's plain array). `total` is null when the header is missing.
 */
export async function apiList<T>(
  path: string,
  opts: RequestOptions = {},
): Promise<{ items: T[]; total: number | null }> {
  let total: number | null = null;
  const items = await api<T[]>(path, {
    ...opts,
    onHeaders: (h) => {
      const raw = h.get('x-total-count');
      total = raw !== null && /^\d+$/.test(raw) ? Number(raw) : null;
    },
  });
  return { items, total };
}

/**
 * Upload with progress (fetch has no upload progress; XHR does): a multipart form, or a file sent as
 * the body itself with its `contentType`. A 428 asks for an authenticator code and sends the same body
 * once more, as api() does (a profile save that changes the sign-in e-mail, decision 2180).
 */
export async function uploadWithProgress<T>(
  path: string,
  form: FormData | Blob,
  onProgress: (fraction: number) => void,
  opts: { method?: string; signal?: AbortSignal; contentType?: string } = {},
): Promise<T> {
  try {
    return await sendUpload<T>(path, form, onProgress, opts);
  } catch (err) {
    if (err instanceof HttpError && err.status === TWO_FACTOR.stepUpStatus && onStepUp && (await onStepUp()))
      return sendUpload<T>(path, form, onProgress, opts);
    throw err;
  }
}

function sendUpload<T>(
  path: string,
  form: FormData | Blob,
  onProgress: (fraction: number) => void,
  opts: { method?: string; signal?: AbortSignal; contentType?: string },
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(opts.method ?? 'POST', path);
    const session = getSession();
    if (session) xhr.setRequestHeader('authorization', `Bearer ${session.userToken}`);
    xhr.setRequestHeader('accept', 'application/json');
    if (opts.contentType && !(form instanceof FormData)) xhr.setRequestHeader('content-type', opts.contentType);
    // Timed from the last sign of life, not from the start: a big file on a slow line takes minutes.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const alive = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        reject(new TimeoutError());
        xhr.abort();
      }, UPLOAD_STALL_MS);
    };
    xhr.upload.onprogress = (e) => {
      alive();
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      clearTimeout(timer);
      let body: unknown;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = xhr.responseText;
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(1);
        resolve(body as T);
      } else {
        try {
          handleFailure(xhr.status, body);
        } catch (err) {
          reject(err);
        }
      }
    };
    xhr.onerror = () => {
      clearTimeout(timer);
      reject(new NetworkError());
    };
    xhr.onabort = () => {
      clearTimeout(timer);
      reject(new DOMException('aborted', 'AbortError'));
    };
    opts.signal?.addEventListener('abort', () => xhr.abort());
    xhr.send(form);
    alive();
  });
}

/** One way to turn any failure into the text a user reads (spec section 8). */
/** The request never reached the server (offline, DNS, connection dropped). */
export const isNetworkError = (err: unknown) => err instanceof NetworkError;
/** The call went out and no answer came in time (decision 2306): the server may have taken it. */
export const isTimedOut = (err: unknown) => err instanceof TimeoutError;
/**
 * The server refused for good (a 4xx but 408 and 429): unlike a lost connection, a busy or failing
 * server, asking again will not help. A 408 (a proxy tired of waiting) says "try again" (decision 2308).
 */
export const isFinalRefusal = (err: unknown) =>
  err instanceof HttpError && err.status >= 400 && err.status < 500 && err.status !== 408 && err.status !== 429;

export function getErrorMessage(err: unknown): string {
  if (err instanceof HttpError || err instanceof NetworkError) return err.message;
  if (err instanceof Error && err.message) return err.message;
  return 'Something went wrong. Please try again.';
}
