import { describe, expect, it, vi } from 'vitest';
import { downloadPdf } from '@/components/pdf-download';
import { api, BUSY_MESSAGE, getErrorMessage } from './http';
import { setSession } from './session';

const said = async (call: Promise<unknown>) => getErrorMessage(await call.catch((e: unknown) => e));

describe('an error answer without a message of its own (decision 2329)', () => {
  it('says in words what each status means, never "Request failed (404)"', async () => {
    // Signed in with the 401 allowed, as login does: the session is not ended by it.
    setSession({ userToken: 't', userType: 'company', userId: 'c1' });
    const statuses = [400, 401, 403, 404, 409, 413, 418, 429, 500, 503];
    const answers = statuses.map((status) => new Response('', { status }));
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => answers.shift()!),
    );
    const words: Record<number, string> = {};
    for (const status of statuses) words[status] = await said(api('/api/cart', { allowUnauthorized: true }));
    expect(words).toEqual({
      400: 'We could not accept that. Check what you entered and try again.',
      401: 'Please log in to continue.',
      403: 'You do not have access to that.',
      404: 'We could not find that.',
      409: 'That changed while you were on this page. Reload it and try again.',
      413: 'That is too large to send. Choose a smaller file or shorten the text.',
      418: 'That did not work (error 418). Reload the page and try again.',
      429: BUSY_MESSAGE,
      500: BUSY_MESSAGE,
      503: BUSY_MESSAGE,
    });
  });

  it("keeps the server's own message first", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response(JSON.stringify({ status: 'fail', message: 'No job found with that ID' }), { status: 404 }),
      ),
    );
    expect(await said(api('/api/jobs/x'))).toBe('No job found with that ID');
  });

  it('says the same for a receipt download', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('', { status: 404 })),
    );
    expect(await said(downloadPdf('/api/receipts/x.pdf', 'receipt.pdf'))).toBe('We could not find that.');
  });
});
