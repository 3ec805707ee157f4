import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { jsonFetch } from '@/test/render';
import { setSession } from '@/lib/session';
import { api, getErrorMessage, REQUEST_TIMEOUT_MS, TIMED_OUT_MESSAGE } from '@/lib/http';
import { Navbar } from './layout/navbar';
import { DataProvider, queryClient } from './data-provider';

afterEach(() => queryClient.clear());

const line = (n: number) => ({
  productId: `p${n}`,
  quantity: 1,
  detail: null,
  file: null,
  fileName: null,
  price: 45000,
  productName: `Product ${n}`,
  productImage: '/uploads/p.png',
});

/** Another tab of this browser writes the stored session: this tab hears it as a storage event. */
function otherTabSignsIn(session: { userToken: string; userType: string; userId: string }) {
  for (const [key, value] of Object.entries(session)) {
    localStorage.setItem(key, value);
    window.dispatchEvent(new StorageEvent('storage', { key, newValue: value }));
  }
}

describe('the query cache across users', () => {
  it("drops one company's data when another tab signs in as another company", { timeout: 15_000 }, async () => {
    const api = jsonFetch({
      'GET /api/cart': (init) =>
        (init?.headers as Record<string, string>).authorization === 'Bearer token-a'
          ? { body: [{ products: [line(1), line(2), line(3)], bill: 135000 }] }
          : { status: 404, body: { status: 'fail', message: 'Your cart is empty' } },
    });
    vi.stubGlobal('fetch', api.fn);
    setSession({ userToken: 'token-a', userType: 'company', userId: 'company-a' });
    render(
      <DataProvider>
        <MemoryRouter initialEntries={['/products']}>
          <Navbar />
        </MemoryRouter>
      </DataProvider>,
    );
    expect((await screen.findAllByRole('link', { name: 'Cart, 3 items' })).length).toBeGreaterThan(0);

    act(() => otherTabSignsIn({ userToken: 'token-b', userType: 'company', userId: 'company-b' }));

    expect((await screen.findAllByRole('link', { name: 'Cart, 0 items' })).length).toBeGreaterThan(0);
    expect(screen.queryByRole('link', { name: 'Cart, 3 items' })).toBeNull();
    const last = api.calls.at(-1)!;
    expect((last.init?.headers as Record<string, string>).authorization).toBe('Bearer token-b');
  });
});

describe('a read on a dead line (decision 2306)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A fetch that never answers and ends only when aborted, as on a dead mobile connection. */
  const hanging = () =>
    vi.fn(
      (_input: RequestInfo | URL, init?: RequestInit) =>
        new Promise<Response>((_, reject) =>
          init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
        ),
    );

  it('shows the message once the first try is given up, without asking twice more', async () => {
    vi.useFakeTimers();
    const fetch = hanging();
    vi.stubGlobal('fetch', fetch);
    let failed: unknown = null;
    void queryClient
      .fetchQuery({ queryKey: ['dead-line'], queryFn: ({ signal }) => api('/api/cart', { signal }) })
      .catch((e: unknown) => (failed = e));
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS);
    expect(getErrorMessage(failed)).toBe(TIMED_OUT_MESSAGE);
    // Two more tries would have kept the spinner another 60 s and more.
    await vi.advanceTimersByTimeAsync(2 * REQUEST_TIMEOUT_MS + 10_000);
    expect(fetch).toHaveBeenCalledOnce();
  });

  it('still asks again, at once, after a connection that failed fast', async () => {
    const fetch = vi
      .fn()
      .mockRejectedValueOnce(new TypeError('Failed to fetch'))
      .mockResolvedValueOnce(new Response('{"n":1}', { status: 200 }));
    vi.stubGlobal('fetch', fetch);
    const data = await queryClient.fetchQuery({
      queryKey: ['flaky-line'],
      queryFn: ({ signal }) => api('/api/cart', { signal }),
      retryDelay: 0,
    });
    expect(data).toEqual({ n: 1 });
    expect(fetch).toHaveBeenCalledTimes(2);
  });
});
