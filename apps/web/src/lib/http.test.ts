import { describe, expect, it, vi } from 'vitest';
import { api, getErrorMessage, HttpError, setUnauthorizedHandler } from './http';
import { getSession, setSession } from './session';

describe('the shared error handling (spec section 8)', () => {
  it('shows "Session timeout, please login again" on a network error', async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    const err = await api('/api/cart').catch((e: unknown) => e);
    expect(getErrorMessage(err)).toBe('Session timeout, please login again');
  });

  it("shows the server's message", async () => {
    vi.stubGlobal(
      'fetch',
      vi
        .fn()
        .mockResolvedValue(
          new Response(JSON.stringify({ status: 'fail', message: 'Kindly add/edit details' }), { status: 400 }),
        ),
    );
    const err = await api('/api/x', { method: 'PUT', body: {} }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HttpError);
    expect(getErrorMessage(err)).toBe('Kindly add/edit details');
  });

  it('on 401 clears the stored session and goes to /login', async () => {
    setSession({ userToken: 'tok', userType: 'company', userId: 'c1' });
    const goLogin = vi.fn();
    setUnauthorizedHandler(goLogin);
    const fetchMock = vi
      .fn()
      .mockResolvedValue(
        new Response(JSON.stringify({ status: 'fail', message: 'Please log in to continue.' }), { status: 401 }),
      );
    vi.stubGlobal('fetch', fetchMock);
    await api('/api/cart').catch(() => undefined);
    expect(fetchMock.mock.calls[0][1].headers.authorization).toBe('Bearer tok');
    expect(getSession()).toBeNull();
    expect(goLogin).toHaveBeenCalledOnce();
  });
});
