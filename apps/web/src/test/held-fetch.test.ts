import { describe, expect, it } from 'vitest';
import { heldFetch } from './held-fetch';

/** Lets pending promise callbacks run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('heldFetch', () => {
  it('runs the route as each request goes out, so a duplicate send is counted while both are held', async () => {
    let posts = 0;
    const { fn, sent } = heldFetch(
      { 'POST /send': () => ({ body: { n: ++posts } }) },
      ({ method }) => method === 'POST',
    );
    void fn('/send', { method: 'POST' });
    void fn('/send', { method: 'POST' });
    await settle();
    expect(posts).toBe(2);
    expect(sent).toEqual(['/send', '/send']);
  });

  it('answers held requests oldest first, one per release, and every one on releaseAll', async () => {
    const { fn, release, releaseAll } = heldFetch({ 'POST /send': (init) => ({ body: init?.body }) }, () => true);
    const answered: string[] = [];
    const send = (note: string) =>
      fn('/send', { method: 'POST', body: note }).then(async (r) => answered.push((await r.json()) as string));
    const all = [send('first'), send('second'), send('third')];
    await settle();
    expect(answered).toEqual([]);
    release();
    await settle();
    expect(answered).toEqual(['first']);
    releaseAll();
    await Promise.all(all);
    expect(answered).toEqual(['first', 'second', 'third']);
  });

  it('holds a dropped line until release, then fails the request', async () => {
    const { fn, release } = heldFetch(
      {
        'POST /send': () => {
          throw new TypeError('Failed to fetch');
        },
      },
      () => true,
    );
    let failed: unknown = null;
    const request = fn('/send', { method: 'POST' }).catch((err: unknown) => (failed = err));
    await settle();
    expect(failed).toBeNull();
    release();
    await request;
    expect(failed).toBeInstanceOf(TypeError);
  });

  it('refuses a release while no request is held, which would otherwise let nothing through', async () => {
    const { fn, release, releaseAll } = heldFetch({ 'POST /send': () => ({ body: 'sent' }) }, () => true);
    expect(release).toThrow(/no request held/);
    releaseAll();
    const request = fn('/send', { method: 'POST' });
    release();
    expect(await (await request).json()).toBe('sent');
    expect(release).toThrow(/no request held/);
  });
});
