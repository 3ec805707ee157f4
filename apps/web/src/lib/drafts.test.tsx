import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderHook } from '@testing-library/react';
import { setSession } from './session';
import { SEND_KEY_MS, useSendKey } from './drafts';

afterEach(() => vi.useRealTimers());

describe('useSendKey (decision 2240)', () => {
  it('answers the same key for the same values, after a reload too, and a new one for other values', () => {
    setSession({ userToken: 't', userType: 'company', userId: 'c1' });
    const first = renderHook(() => useSendKey('add:p1'));
    const k = first.result.current.keyFor({ quantity: 1 });
    expect(k).toMatch(/^[0-9a-f-]{36}$/);
    expect(first.result.current.keyFor({ quantity: 1 })).toBe(k);
    first.unmount();
    const reloaded = renderHook(() => useSendKey('add:p1'));
    expect(reloaded.result.current.keyFor({ quantity: 1 })).toBe(k);
    const other = reloaded.result.current.keyFor({ quantity: 2 });
    expect(other).not.toBe(k);
    reloaded.result.current.done();
    expect(localStorage.getItem('draft:c1:add:p1')).toBeNull();
    expect(reloaded.result.current.keyFor({ quantity: 2 })).not.toBe(other);
  });

  it('takes a new key for the same values sent long after: new work, not a retry', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    setSession({ userToken: 't', userType: 'company', userId: 'c1' });
    const first = renderHook(() => useSendKey('add:p1'));
    const k = first.result.current.keyFor({ quantity: 1 });
    // Retried within the window, again and again: the window runs from the last send.
    vi.advanceTimersByTime(SEND_KEY_MS - 1000);
    expect(first.result.current.keyFor({ quantity: 1 })).toBe(k);
    vi.advanceTimersByTime(SEND_KEY_MS - 1000);
    expect(first.result.current.keyFor({ quantity: 1 })).toBe(k);
    first.unmount();
    // Days later, on this phone, the same product with the same quantity.
    vi.advanceTimersByTime(3 * 86_400_000);
    const later = renderHook(() => useSendKey('add:p1'));
    expect(later.result.current.keyFor({ quantity: 1 })).not.toBe(k);
  });

  it('keeps a key in memory only with no name, or with no one signed in', () => {
    const { result } = renderHook(() => useSendKey(null));
    const k = result.current.keyFor({ amount: 5000 });
    expect(result.current.keyFor({ amount: 5000 })).toBe(k);
    expect(localStorage.length).toBe(0);
  });
});
