import { afterAll, beforeAll, expect, it } from 'vitest';
import { insertUsers } from './admin-fixtures.js';
import { createTestApp, describeEachDb, signupAndLogin, type TestApp } from './helpers.js';
import { is2xx, specClient, type Data, type Response } from './spec-client-kit.js';

/**
 * Both call tables played once more by a client written only from the spec (decision 2234), with the
 * variants such a client sends where the spec leaves the form of a value open: the lawyer-and-admin
 * table's `data.` answers read as the login's `data.user` is, a flag sent as the text "true", the bearer
 * token as a client keeps it, a list in one form value, and a trailing slash. `response.data` is the
 * JSON body, read only by the spec's names.
 */
describeEachDb('spec client variants of both call tables', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  const client = (userToken?: string) => specClient(t.app, userToken);
  const failsWith = (r: Response, status: number, message: string) => {
    expect(r.status, JSON.stringify(r.data)).toBe(status);
    expect(r.data.message).toBe(message);
  };

  it('GET /api/verifiedlawyers, /api/unverifiedlawyers, /api/companys, /api/lawyer/{id}: the `data.` answers', async () => {
    // lawyer-and-admin 7: "Verified lawyers | ... | data.lawyers", "Unverified lawyers | data.lawyers",
    // "Companies | data.company list", "Lawyer by id | data.lawyer", written as the same table writes
    // "Company by id | data.company" and the login's "data.user": both under `data` in the body.
    const admin = await signupAndLogin(t, 'admin');
    await insertUsers(t, 'company', 6);
    await insertUsers(t, 'lawyer', 6, { verified: true });
    const company = await signupAndLogin(t, 'company');
    const lawyer = await signupAndLogin(t, 'lawyer');
    const api = client(admin.token);

    const verified = is2xx(await api.get('/api/verifiedlawyers'));
    expect(verified.data.lawyers.length).toBeGreaterThanOrEqual(6);
    for (const l of verified.data.lawyers) expect(l.verified).toBe(true);
    const unverified = is2xx(await api.get('/api/unverifiedlawyers'));
    expect(unverified.data.lawyers.map((l: Data) => l._id)).toContain(lawyer.id);
    // Section 2, assign job: each row shows image, name, SCN number and creation date.
    const row = unverified.data.lawyers.find((l: Data) => l._id === lawyer.id);
    for (const field of ['profileImage', 'name', 'scn', 'createdAt']) expect(field in row, field).toBe(true);
    const companies = is2xx(await api.get('/api/companys'));
    expect(companies.data.company.map((c: Data) => c._id)).toContain(company.id);
    // Our web reads the keys at the top (decision 0901): the same items.
    expect(verified.lawyers).toEqual(verified.data.lawyers);
    expect(companies.company).toEqual(companies.data.company);
    // The admin pages' paged form, too.
    const page = is2xx(await api.get('/api/companys?page=2&limit=5'));
    expect(page.data.company).toEqual(page.company);
    expect(page.data.company).toHaveLength(Math.min(5, companies.company.length - 5));

    const one = is2xx(await api.get(`/api/lawyer/${lawyer.id}`));
    // Section 6: "Profile lookups succeed only if the returned id matches the requested id".
    expect(one.data.lawyer._id).toBe(lawyer.id);
    expect(one.data.lawyer.verified).toBe(false);
    expect(one.lawyer).toEqual(one.data.lawyer);
    failsWith(await api.get(`/api/lawyer/${company.id}`), 404, 'Lawyer not found');
  });
});
