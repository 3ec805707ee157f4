import { afterAll, beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { uploads } from '../../src/db/schema.js';
import { createTestApp, describeEachDb, signupAndLogin, type TestApp } from '../helpers.js';
import { multipart, pngBytes, type Part } from '../upload-helpers.js';

type Login = Awaited<ReturnType<typeof signupAndLogin>>;

/**
 * Decision 2255: a profile picture its owner replaced is no longer served. Before, the old picture
 * stayed public at its address for as long as the account lived (a wrong photo, an ID card sent by
 * mistake), for anyone who had seen the profile.
 */
describeEachDb('a replaced profile picture (2255)', (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(kind, { IP_MAX_REQUESTS: '100000' });
  }, 120_000);
  afterAll(async () => t?.close());

  const save = async (who: Login, role: 'company' | 'lawyer', parts: Part[]) => {
    const body = await multipart(parts);
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/api/updateprofile?_id=${who.id}`,
      headers: { ...who.headers, ...body.headers },
      payload: body.payload,
    });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as Record<string, { profileImage: { url: string } | null }>)[role].profileImage!.url;
  };
  const picture = (seed: number): Part => ({
    name: 'profileImage',
    file: { data: pngBytes(4 + seed, 4), filename: `me-${seed}.png`, type: 'image/png' },
  });
  const served = async (url: string) => (await t.app.inject({ method: 'GET', url })).statusCode;
  const keyOf = (url: string) => url.split('/').pop()!;

  it('stops serving the picture a company or lawyer replaced, and keeps the new one', async () => {
    for (const role of ['company', 'lawyer'] as const) {
      const who = await signupAndLogin(t, role);
      const first = await save(who, role, [picture(1)]);
      expect(await served(first)).toBe(200);
      const second = await save(who, role, [picture(2)]);
      expect(second).not.toBe(first);
      expect(await served(first), role).toBe(404);
      expect(
        await t.rt.database.db
          .select()
          .from(uploads)
          .where(eq(uploads.key, keyOf(first))),
      ).toEqual([]);
      expect(await served(second)).toBe(200);
      // Saved again without a new picture: the picture stays.
      expect(
        await save(who, role, [
          { name: 'yourBio', value: 'Lagos' },
          { name: 'profileImage', value: 'null' },
        ]),
      ).toBe(second);
      expect(await served(second)).toBe(200);
    }
  });

  it("refuses another account's picture by its address, so its owner's replacement still removes it (2275)", async () => {
    const owner = await signupAndLogin(t, 'company');
    const first = await save(owner, 'company', [picture(3)]);
    for (const [other, role] of [
      [await signupAndLogin(t, 'lawyer'), 'lawyer'],
      [await signupAndLogin(t, 'company'), 'company'],
    ] as const) {
      // Another's picture by its address, as it is or on another host: taken, its owner could never remove it.
      for (const url of [first, `https://elsewhere.example${first}`]) {
        const body = await multipart([{ name: 'profileImage', value: url }]);
        const res = await t.app.inject({
          method: 'PATCH',
          url: `/api/updateprofile?_id=${other.id}`,
          headers: { ...other.headers, ...body.headers },
          payload: body.payload,
        });
        expect(res.statusCode, `${role}: ${res.body}`).toBe(403);
      }
      const profile = await t.app.inject({
        method: 'GET',
        url: `/api/userprofile?_id=${other.id}`,
        headers: other.headers,
      });
      expect(JSON.stringify(profile.json()), role).not.toContain(keyOf(first));
    }
    // Its own picture by address, and the one it shows sent back, still save.
    expect(await save(owner, 'company', [{ name: 'profileImage', value: first }])).toBe(first);
    const form = await multipart([picture(5)]);
    const uploaded = await t.app.inject({
      method: 'POST',
      url: '/api/uploads?kind=image',
      headers: { ...owner.headers, ...form.headers },
      payload: form.payload,
    });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const second = await save(owner, 'company', [{ name: 'profileImage', value: uploaded.json().data.url }]);
    expect(second).not.toBe(first);
    expect(await served(first)).toBe(404);
    expect(await served(second)).toBe(200);
  });
});
