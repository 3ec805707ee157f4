import { describe, expect, it, vi } from 'vitest';
import { prefetch } from '@/early';
import {
  api,
  getErrorMessage,
  HttpError,
  setStepUpHandler,
  setUnauthorizedHandler,
  takeArrived,
  uploadWithProgress,
} from './http';
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

  it('tells the 401 handler whose session ended, so the page can be given back to that user only (decision 2240)', async () => {
    setSession({ userToken: 'tok', userType: 'company', userId: 'c1' });
    const goLogin = vi.fn();
    setUnauthorizedHandler(goLogin);
    vi.stubGlobal(
      'fetch',
      vi
        .fn()
        .mockResolvedValue(new Response(JSON.stringify({ message: 'Please log in to continue.' }), { status: 401 })),
    );
    await api('/api/cart').catch(() => undefined);
    expect(goLogin).toHaveBeenCalledWith('c1');
  });
});

describe('answers asked for before the page needs them', () => {
  const ok = (body: unknown) => new Response(JSON.stringify(body), { status: 200 });

  it('the first GET of the same URL takes the early answer instead of asking again, once', async () => {
    setSession({ userToken: 'tok', userType: 'company', userId: 'c1' });
    const fetchMock = vi
      .fn()
      .mockResolvedValueOnce(ok({ n: 1 }))
      .mockResolvedValueOnce(ok({ n: 2 }));
    vi.stubGlobal('fetch', fetchMock);
    prefetch('/api/cart');
    expect(fetchMock).toHaveBeenCalledOnce();
    expect(fetchMock.mock.calls[0][1].headers.authorization).toBe('Bearer tok');
    expect(await api('/api/cart')).toEqual({ n: 1 });
    expect(fetchMock).toHaveBeenCalledOnce();
    // Taken once: the next call asks the server.
    expect(await api('/api/cart')).toEqual({ n: 2 });
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('is not used for another URL, another session or a write', async () => {
    setSession({ userToken: 'tok', userType: 'company', userId: 'c1' });
    const fetchMock = vi.fn().mockImplementation(async () => ok({}));
    vi.stubGlobal('fetch', fetchMock);
    prefetch('/product-api/products');
    await api('/product-api/products', { query: { page: 2 } });
    expect(fetchMock.mock.calls[1][0]).toBe('/product-api/products?page=2');

    prefetch('/api/cart');
    setSession({ userToken: 'other', userType: 'company', userId: 'c2' });
    await api('/api/cart');
    expect(fetchMock).toHaveBeenCalledTimes(4);
    expect(fetchMock.mock.calls[3][1].headers.authorization).toBe('Bearer other');

    prefetch('/api/cart');
    await api('/api/cart', { method: 'POST', body: {} });
    expect(fetchMock.mock.calls[5][1].method).toBe('POST');
  });

  it('reports an early failure to the taker as its own: 401 ends the session', async () => {
    setSession({ userToken: 'tok', userType: 'company', userId: 'c1' });
    const goLogin = vi.fn();
    setUnauthorizedHandler(goLogin);
    vi.stubGlobal(
      'fetch',
      vi.fn().mockResolvedValue(new Response(JSON.stringify({ status: 'fail', message: 'Log in' }), { status: 401 })),
    );
    prefetch('/api/cart');
    expect(goLogin).not.toHaveBeenCalled();
    const err = await api('/api/cart').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HttpError);
    expect(getSession()).toBeNull();
    expect(goLogin).toHaveBeenCalledOnce();

    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    prefetch('/product-api/products');
    expect(getErrorMessage(await api('/product-api/products').catch((e: unknown) => e))).toBe(
      'Session timeout, please login again',
    );
  });

  it('hands an answer that has arrived to a query as its initial data, once, and only a success', async () => {
    setSession({ userToken: 'tok', userType: 'company', userId: 'c1' });
    const fetchMock = vi
      .fn()
      .mockResolvedValueOnce(ok({ data: { n: 1 } }))
      .mockResolvedValueOnce(new Response('{"message":"gone"}', { status: 404 }));
    vi.stubGlobal('fetch', fetchMock);
    const answer = prefetch('/product-api/products');
    // Not in yet: nothing to hand over, and it stays for api().
    expect(takeArrived('/product-api/products')).toBeUndefined();
    await answer;
    expect(takeArrived('/product-api/products')).toEqual({ data: { n: 1 } });
    expect(takeArrived('/product-api/products')).toBeUndefined();

    await prefetch('/api/cart');
    expect(takeArrived('/api/cart')).toBeUndefined();
    // The failure goes to api(), as if it had asked itself.
    expect(await api('/api/cart').catch((e: unknown) => (e as HttpError).status)).toBe(404);
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });
});

describe('a 428 on a form upload (decision 2180)', () => {
  /** XMLHttpRequests answered in order from `answers`, each keeping the body it was sent. */
  function fakeXhr(answers: Array<[number, unknown]>) {
    const sent: Array<FormData | Blob> = [];
    class FakeXhr {
      status = 0;
      responseText = '';
      upload = { onprogress: null };
      onload: (() => void) | null = null;
      onerror: (() => void) | null = null;
      onabort: (() => void) | null = null;
      open() {}
      setRequestHeader() {}
      send(body: FormData | Blob) {
        sent.push(body);
        const [status, answer] = answers.shift()!;
        queueMicrotask(() => {
          this.status = status;
          this.responseText = JSON.stringify(answer);
          this.onload?.();
        });
      }
    }
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    return sent;
  }
  const stepUp = { status: 'fail', message: 'Enter the code from your authenticator app to continue' };

  it('asks for a code and sends the same form once more', async () => {
    setSession({ userToken: 'tok', userType: 'company', userId: 'c1' });
    const sent = fakeXhr([
      [428, stepUp],
      [200, { status: 'success', message: 'Profile Updated Successfully' }],
    ]);
    const ask = vi.fn().mockResolvedValue(true);
    setStepUpHandler(ask);
    const form = new FormData();
    form.append('officialEmail', 'new@example.ng');
    const answer = await uploadWithProgress('/api/updateprofile?_id=c1', form, () => {}, { method: 'PATCH' });
    expect(answer).toEqual({ status: 'success', message: 'Profile Updated Successfully' });
    expect(ask).toHaveBeenCalledOnce();
    expect(sent).toEqual([form, form]);
    setStepUpHandler(null);
  });

  it('leaves the 428 to the caller when the prompt is closed, and never asks twice', async () => {
    setSession({ userToken: 'tok', userType: 'company', userId: 'c1' });
    const ask = vi.fn().mockResolvedValue(false);
    setStepUpHandler(ask);
    fakeXhr([[428, stepUp]]);
    const closed = await uploadWithProgress('/x', new FormData(), () => {}).catch((e: unknown) => e);
    expect(closed).toBeInstanceOf(HttpError);
    expect((closed as HttpError).status).toBe(428);
    ask.mockResolvedValue(true);
    const sent = fakeXhr([
      [428, stepUp],
      [428, stepUp],
    ]);
    const again = await uploadWithProgress('/x', new FormData(), () => {}).catch((e: unknown) => e);
    expect((again as HttpError).status).toBe(428);
    expect(sent).toHaveLength(2);
    expect(ask).toHaveBeenCalledTimes(2);
    expect(getSession()).not.toBeNull();
    setStepUpHandler(null);
  });
});
