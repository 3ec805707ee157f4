import { afterEach, describe, expect, it, vi } from 'vitest';
import { prefetch } from '@/early';
import { xhrThroughFetch } from '@/test/xhr-through-fetch';
import {
  api,
  BUSY_MESSAGE,
  getErrorMessage,
  isNetworkError,
  REQUEST_TIMEOUT_MS,
  TIMED_OUT_MESSAGE,
  UPLOAD_STALL_MS,
  uploadWithProgress,
} from './http';

/**
 * A fetch on a dead mobile connection: never answers, never fails; only an abort ends it, as a
 * browser's does. Tells whether each request was aborted.
 */
function hangingFetch() {
  const aborted: boolean[] = [];
  const fn = vi.fn((_input: RequestInfo | URL, init?: RequestInit) => {
    const i = aborted.push(false) - 1;
    return new Promise<Response>((_, reject) => {
      const end = () => {
        aborted[i] = true;
        reject(new DOMException('aborted', 'AbortError'));
      };
      if (init?.signal?.aborted) end();
      init?.signal?.addEventListener('abort', end);
    });
  });
  vi.stubGlobal('fetch', fn);
  return { fn, aborted };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('a call that never gets an answer (decision 2306)', () => {
  it('gives up after REQUEST_TIMEOUT_MS with a message that says to try again, and frees the connection', async () => {
    vi.useFakeTimers();
    const { aborted } = hangingFetch();
    const outcome = api('/job-api/jobs/j1').catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS - 1);
    let settled = false;
    void outcome.then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const err = await outcome;
    expect(getErrorMessage(err)).toBe(TIMED_OUT_MESSAGE);
    expect(TIMED_OUT_MESSAGE).toBe('No answer from the server. Check your connection and try again.');
    // A write may have reached the server: callers treat it as a lost answer, not a refusal.
    expect(isNetworkError(err)).toBe(true);
    expect(aborted).toEqual([true]);
  });

  it('times a prefetched answer the page waits for as well', async () => {
    vi.useFakeTimers();
    hangingFetch();
    void prefetch('/product-api/products');
    const outcome = api('/product-api/products').catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS);
    expect(getErrorMessage(await outcome)).toBe(TIMED_OUT_MESSAGE);
  });

  it("still answers the caller's own abort as an abort, and a timely answer as before", async () => {
    vi.useFakeTimers();
    hangingFetch();
    const ctl = new AbortController();
    const outcome = api('/api/cart', { signal: ctl.signal }).catch((e: unknown) => e);
    ctl.abort();
    expect(((await outcome) as Error).name).toBe('AbortError');
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_i: RequestInfo | URL, init?: RequestInit) => {
        if (init?.signal?.aborted) throw new DOMException('aborted', 'AbortError');
        return new Response('{"n":1}', { status: 200 });
      }),
    );
    expect(await api('/api/cart')).toEqual({ n: 1 });
    // The timer of a call that was answered is cleared: nothing fires later.
    expect(vi.getTimerCount()).toBe(0);
  });

  it('aborts the request when the caller aborts, even before it went out', async () => {
    const { aborted } = hangingFetch();
    const ctl = new AbortController();
    const first = api('/api/cart', { signal: ctl.signal }).catch((e: unknown) => e);
    ctl.abort();
    const second = api('/api/cart', { signal: ctl.signal }).catch((e: unknown) => e);
    expect(aborted).toEqual([true, true]);
    expect([((await first) as Error).name, ((await second) as Error).name]).toEqual(['AbortError', 'AbortError']);
  });
});

describe('an upload on a slow line (decision 2306)', () => {
  it('goes on for as long as its progress moves, and gives up once it stalls for UPLOAD_STALL_MS', async () => {
    vi.useFakeTimers();
    hangingFetch();
    const { sent } = xhrThroughFetch();
    const progress: number[] = [];
    const outcome = uploadWithProgress('/api/uploads?kind=document', new FormData(), (f) => progress.push(f)).catch(
      (e: unknown) => e,
    );
    let settled = false;
    void outcome.then(() => (settled = true));
    // Ten minutes of a big file going up slowly: far past any total-duration limit, still alive.
    for (let i = 1; i <= 20; i++) {
      await vi.advanceTimersByTimeAsync(UPLOAD_STALL_MS - 1_000);
      sent[0].progress(i, 40);
    }
    expect(settled).toBe(false);
    expect(progress).toHaveLength(20);
    // Then the line goes dead.
    await vi.advanceTimersByTimeAsync(UPLOAD_STALL_MS);
    const err = await outcome;
    expect(getErrorMessage(err)).toBe(TIMED_OUT_MESSAGE);
    expect(isNetworkError(err)).toBe(true);
  });

  it('gives up on an upload that never starts, or whose answer never comes once all is sent', async () => {
    vi.useFakeTimers();
    hangingFetch();
    const { sent } = xhrThroughFetch();
    const never = uploadWithProgress('/api/uploads?kind=document', new FormData(), () => {}).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(UPLOAD_STALL_MS);
    expect(getErrorMessage(await never)).toBe(TIMED_OUT_MESSAGE);

    const unanswered = uploadWithProgress('/api/uploads?kind=document', new FormData(), () => {}).catch(
      (e: unknown) => e,
    );
    sent[1].progress(40, 40);
    await vi.advanceTimersByTimeAsync(UPLOAD_STALL_MS);
    expect(getErrorMessage(await unanswered)).toBe(TIMED_OUT_MESSAGE);
  });
});

describe('an answer with nothing a user can read (decision 2308)', () => {
  it("says to try again in a moment for a gateway's page or a busy server, and keeps the server's own words", async () => {
    const answers = [
      new Response('<html><body>502 Bad Gateway</body></html>', { status: 502 }),
      new Response('', { status: 504 }),
      new Response('', { status: 429 }),
      new Response(JSON.stringify({ status: 'fail', message: 'Too many requests, please try again later.' }), {
        status: 429,
      }),
    ];
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => answers.shift()!),
    );
    const said = [];
    for (let i = 0; i < 4; i++) said.push(getErrorMessage(await api('/api/cart').catch((e: unknown) => e)));
    expect(said).toEqual([BUSY_MESSAGE, BUSY_MESSAGE, BUSY_MESSAGE, 'Too many requests, please try again later.']);
    expect(BUSY_MESSAGE).toBe('The server could not answer just now. Please try again in a moment.');
  });

  it('does the same for an upload', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('<html>502</html>', { status: 502 })),
    );
    xhrThroughFetch();
    const err = await uploadWithProgress('/api/uploads?kind=document', new FormData(), () => {}).catch(
      (e: unknown) => e,
    );
    expect(getErrorMessage(err)).toBe(BUSY_MESSAGE);
  });
});
