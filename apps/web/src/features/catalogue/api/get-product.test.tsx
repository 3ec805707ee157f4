import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ReactNode } from 'react';
import { renderHook } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { getErrorMessage, REQUEST_TIMEOUT_MS, TIMED_OUT_MESSAGE } from '@/lib/http';
import { useProduct } from './get-product';

afterEach(() => {
  vi.useRealTimers();
});

describe("a product's read on a dead line (decision 2306)", () => {
  it('is given up after the first 30 s, not tried twice more', async () => {
    vi.useFakeTimers();
    const fetch = vi.fn(
      (_input: RequestInfo | URL, init?: RequestInit) =>
        new Promise<Response>((_, reject) =>
          init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
        ),
    );
    vi.stubGlobal('fetch', fetch);
    const client = new QueryClient();
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    );
    const { result } = renderHook(() => useProduct('p1'), { wrapper });
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS + 100);
    expect(result.current.isError).toBe(true);
    expect(getErrorMessage(result.current.error)).toBe(TIMED_OUT_MESSAGE);
    await vi.advanceTimersByTimeAsync(2 * REQUEST_TIMEOUT_MS + 10_000);
    expect(fetch).toHaveBeenCalledOnce();
    client.clear();
  });
});
