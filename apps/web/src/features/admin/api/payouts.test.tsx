import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { getErrorMessage, REQUEST_TIMEOUT_MS, TIMED_OUT_MESSAGE } from '@/lib/http';
import { setSession } from '@/lib/session';
import { testQueryClient } from '@/test/render';
import { useApprovePayouts } from './payouts';

afterEach(() => {
  vi.useRealTimers();
});

describe('a payout batch on its way (decision 2306)', () => {
  it('waits 32 s more per payout, as the server sends each to the provider (3 tries) before it answers', async () => {
    vi.useFakeTimers();
    setSession({ userToken: 't', userType: 'admin', userId: 'a1' });
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise<Response>(() => {})),
    );
    const client = testQueryClient();
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    );
    const { result } = renderHook(() => useApprovePayouts(), { wrapper });
    act(() => result.current.mutate(['p1', 'p2', 'p3']));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS + 3 * 32_000 - 1_000);
    });
    expect(result.current.isPending).toBe(true);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1_000);
    });
    await vi.waitFor(() => expect(result.current.isError).toBe(true));
    expect(getErrorMessage(result.current.error)).toBe(TIMED_OUT_MESSAGE);
  });
});
