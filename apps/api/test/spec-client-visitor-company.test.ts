import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, describeEachDb, signupAndLogin, type TestApp } from './helpers.js';
import { is2xx, specClient, type Response } from './spec-client-kit.js';
import { pngBytes } from './upload-helpers.js';

/**
 * The visitor-and-company call table played once more by a client written only from that document
 * (decision 2210): the rows and fields the earlier rounds (spec-client, spec-audit, spec-client-loose-inputs,
 * spec-client-lawyer-admin) did not exercise. Each test names the spec line it follows; `response.data`
 * is the JSON body, read only by the spec's names.
 */
describeEachDb('the visitor and company call table, as a spec client sends and reads it', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  const client = (userToken?: string) => specClient(t.app, userToken);
  const picture = () => new Blob([new Uint8Array(pngBytes(8, 8))], { type: 'image/png' });
  const failsWith = (r: Response, status: number, message: string) => {
    expect(r.status, JSON.stringify(r.data)).toBe(status);
    expect(r.data.message).toBe(message);
  };
  /** Section 3, Company: the fields a company profile is read by. */
  const COMPANY_FIELDS = [
    '_id',
    'contactName',
    'phoneNumber',
    'officialEmail',
    'officeAddress',
    'cac',
    'industry',
    'website',
    'yourBio',
    'alternativeEmailAddress',
    'profileImage',
    'createdAt',
  ];

  it('GET /api/company/{id} answers `data.company`; its id is the one asked for, with the section 3 fields', async () => {
    // Section 7: "GET /api/company/{id} | data.company (admin view)", written as the login row's "data.user"
    // (which our login answers under `data`). Section 6: "Profile lookups succeed only if the returned id
    // equals the requested id", and "An admin opening a company profile uses the admin company lookup".
    const admin = await signupAndLogin(t, 'admin');
    const company = await signupAndLogin(t, 'company');
    is2xx(
      await client(company.token).form('PATCH', `/api/updateprofile?_id=${company.id}`, { profileImage: picture() }),
    );

    const viewed = is2xx(await client(admin.token).get(`/api/company/${company.id}`));
    expect(viewed.data.company._id).toBe(company.id);
    for (const field of COMPANY_FIELDS) expect(field in viewed.data.company, field).toBe(true);
    expect(viewed.data.company.companyName ?? viewed.data.company.name).toBe('Ada Ventures Ltd');
    expect(viewed.data.company.profileImage.url).toMatch(/^\/uploads\//);
    // Our web reads `company` at the top (decision 0901): the same profile.
    expect(viewed.company).toEqual(viewed.data.company);

    // The company's own lookup answers the same fields, by the same names.
    const own = is2xx(await client(company.token).get(`/api/userprofile?_id=${company.id}`));
    expect(own._id).toBe(company.id);
    for (const field of COMPANY_FIELDS) expect(own[field], field).toEqual(viewed.data.company[field]);

    // Anyone else is refused; an id that is no company is named as such.
    expect((await client(company.token).get(`/api/company/${company.id}`)).status).toBe(403);
    const lawyer = await signupAndLogin(t, 'lawyer');
    failsWith(await client(admin.token).get(`/api/company/${lawyer.id}`), 404, 'Company not found');
  });
});
