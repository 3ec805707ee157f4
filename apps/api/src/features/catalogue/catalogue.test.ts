import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { messages } from '@legalmarket/contracts';
import { appSettings, auditLog, jobs, orders, products } from '../../db/schema.js';
import { seedCatalogue } from './seed.js';
import { findJobViews } from '../jobs/view.js';
import { createTestApp, describeEachDb, signupAndLogin, type TestApp } from '../../../test/helpers.js';
import { htmlBytes, multipart, pngBytes, svgBytes, type Part } from '../../../test/upload-helpers.js';

type Login = Awaited<ReturnType<typeof signupAndLogin>>;

const fields = (over: Partial<Record<'productName' | 'productPrice' | 'productDescription', string | null>> = {}) => {
  const base = {
    productName: 'Tenancy Agreement Review',
    productPrice: '45000',
    productDescription: 'A lawyer reviews your office lease and tells you what to change.',
    ...over,
  };
  return Object.entries(base)
    .filter(([, v]) => v !== null)
    .map(([name, value]) => ({ name, value: value as string }));
};
const image = (data = pngBytes(6, 6), filename = 'lease.png'): Part => ({
  name: 'productImage',
  file: { data, filename, type: 'image/png' },
});

describeEachDb('catalogue: products API', (kind) => {
  let t: TestApp;
  let admin: Login;
  let company: Login;
  let lawyer: Login;
  beforeAll(async () => {
    t = await createTestApp(kind, { UPLOAD_MAX_IMAGE_BYTES: '30000' });
    admin = await signupAndLogin(t, 'admin');
    company = await signupAndLogin(t, 'company');
    lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
  });
  afterAll(() => t.close());

  async function send(method: 'POST' | 'PUT', url: string, headers: Record<string, string> | undefined, parts: Part[]) {
    const body = await multipart(parts);
    return t.app.inject({ method, url, headers: { ...body.headers, ...headers }, payload: body.payload });
  }
  const create = (headers: Record<string, string> | undefined, parts: Part[] = [...fields(), image()]) =>
    send('POST', '/api/create', headers, parts);

  it('is described in the OpenAPI document', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode, res.body).toBe(200);
    const doc = res.json();
    for (const p of [
      '/product-api/products',
      '/product-api/product/{id}',
      '/api/create',
      '/api/update/{id}',
      '/api/delete/{id}',
      '/api/uploads',
    ])
      expect(Object.keys(doc.paths)).toContain(p);
  });

  it('starts empty when seeding is off', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/product-api/products' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'success', results: 0, products: [] });
  });

  it('lets only admins create, update and delete (guest 401, company and lawyer 403)', async () => {
    expect((await create(undefined)).statusCode).toBe(401);
    expect((await create(company.headers)).statusCode).toBe(403);
    expect((await create(lawyer.headers)).statusCode).toBe(403);
    const made = await create(admin.headers);
    expect(made.statusCode).toBe(201);
    const id = made.json().data.product._id;
    for (const who of [undefined, company.headers, lawyer.headers]) {
      const code = who ? 403 : 401;
      expect((await send('PUT', `/api/update/${id}`, who, [...fields({ productPrice: '1' })])).statusCode).toBe(code);
      expect((await t.app.inject({ method: 'DELETE', url: `/api/delete/${id}`, headers: who })).statusCode).toBe(code);
    }
    const still = await t.app.inject({ method: 'GET', url: `/product-api/product/${id}` });
    expect(still.json().productPrice).toBe(45000);
  });

  it('creates a product with its image: New Product Created, naira price, the picture served as an image', async () => {
    const res = await create(admin.headers, [
      ...fields({ productName: '  Loan Agreement  ', productPrice: '120000' }),
      image(),
    ]);
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.status).toBe('success');
    expect(body.message).toBe(messages.newProductCreated);
    const p = body.data.product;
    expect(p).toMatchObject({
      productName: 'Loan Agreement',
      productPrice: 120000,
      productDescription: expect.any(String),
    });
    expect(p._id).toBe(p.id);
    expect(p.productImage).toMatch(/^\/uploads\/[a-f0-9]{32}\.png$/);
    const [row] = await t.rt.database.db.select().from(products).where(eq(products.id, p._id));
    expect(row.productPrice).toBe(12_000_000); // kobo
    const pic = await t.app.inject({ method: 'GET', url: p.productImage });
    expect(pic.statusCode).toBe(200);
    expect(pic.headers['content-type']).toBe('image/png');
    const audit = await t.rt.database.db.select().from(auditLog).where(eq(auditLog.targetId, p._id));
    expect(audit).toMatchObject([{ action: 'product.create', actorId: admin.id, targetType: 'product' }]);
  });

  it('names every missing or bad field', async () => {
    const cases: Array<[Part[], number, string]> = [
      [[...fields({ productName: null }), image()], 400, messages.enterProductName],
      [[...fields({ productName: '   ' }), image()], 400, messages.enterProductName],
      [[...fields({ productPrice: null }), image()], 400, messages.enterProductPrice],
      [[...fields({ productPrice: '12,000' }), image()], 400, messages.productPriceDigits],
      [[...fields({ productPrice: '-5' }), image()], 400, messages.productPriceDigits],
      [[...fields({ productPrice: '0' }), image()], 400, messages.productPriceDigits],
      [[...fields({ productDescription: null }), image()], 400, messages.enterProductDescription],
      [[...fields()], 400, messages.chooseProductImage],
      [[...fields(), image(htmlBytes(), 'x.png')], 415, messages.imageTypeRefused],
      [[...fields(), image(svgBytes(), 'x.svg')], 415, messages.imageTypeRefused],
      [
        [...fields(), { ...image(), name: 'picture' }],
        400,
        'Unexpected file field picture; send the file as productImage',
      ],
    ];
    const before = (await t.rt.database.db.select().from(products)).length;
    for (const [parts, code, message] of cases) {
      const res = await create(admin.headers, parts);
      expect(res.statusCode, message).toBe(code);
      expect(res.json()).toMatchObject({ status: 'fail', message });
    }
    const big = await create(admin.headers, [...fields(), image(pngBytes(4, 4, 31_000))]);
    expect(big.statusCode).toBe(413);
    const json = await t.app.inject({
      method: 'POST',
      url: '/api/create',
      headers: admin.headers,
      payload: { productName: 'x' },
    });
    expect(json.statusCode).toBe(415);
    expect((await t.rt.database.db.select().from(products)).length).toBe(before);
  });

  describe('update, delete and caching', () => {
    let id: string;
    let firstImage: string;
    beforeAll(async () => {
      const res = await create(admin.headers, [...fields({ productName: 'Trademark Filing' }), image()]);
      id = res.json().data.product._id;
      firstImage = res.json().data.product.productImage;
    });

    it('answers the list and one product with an ETag and 304 until something changes', async () => {
      const list = await t.app.inject({ method: 'GET', url: '/product-api/products' });
      const etag = list.headers.etag as string;
      expect(etag).toMatch(/^"[\w-]+"$/);
      expect(list.json().products.map((p: { _id: string }) => p._id)).toContain(id);
      const again = await t.app.inject({
        method: 'GET',
        url: '/product-api/products',
        headers: { 'if-none-match': etag },
      });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
      const one = await t.app.inject({ method: 'GET', url: `/product-api/product/${id}` });
      expect(one.statusCode).toBe(200);
      const oneTag = one.headers.etag as string;
      expect(
        (await t.app.inject({ method: 'GET', url: `/product-api/product/${id}`, headers: { 'if-none-match': oneTag } }))
          .statusCode,
      ).toBe(304);

      const upd = await send(
        'PUT',
        `/api/update/${id}`,
        admin.headers,
        fields({ productName: 'Trademark Filing', productPrice: '99000' }),
      );
      expect(upd.statusCode).toBe(200);
      expect(upd.json()).toMatchObject({ status: 'success', message: messages.productUpdated });
      expect(upd.json().data.product).toMatchObject({ productPrice: 99000, productImage: firstImage });

      const fresh = await t.app.inject({
        method: 'GET',
        url: '/product-api/products',
        headers: { 'if-none-match': etag },
      });
      expect(fresh.statusCode).toBe(200);
      expect(fresh.headers.etag).not.toBe(etag);
      const freshOne = await t.app.inject({
        method: 'GET',
        url: `/product-api/product/${id}`,
        headers: { 'if-none-match': oneTag },
      });
      expect(freshOne.statusCode).toBe(200);
      expect(freshOne.json().productPrice).toBe(99000);
    });

    it('replaces the picture when a new one is sent, validates like create, and records the change', async () => {
      const res = await send('PUT', `/api/update/${id}`, admin.headers, [
        ...fields({ productName: 'Trademark Filing' }),
        image(pngBytes(9, 9), 'new.png'),
      ]);
      expect(res.statusCode).toBe(200);
      expect(res.json().data.product.productImage).not.toBe(firstImage);
      const bad = await send('PUT', `/api/update/${id}`, admin.headers, fields({ productDescription: '' }));
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toBe(messages.enterProductDescription);
      const missing = await send('PUT', '/api/update/4f1c7e2a-0000-4000-8000-000000000000', admin.headers, fields());
      expect(missing.statusCode).toBe(404);
      const badId = await send('PUT', '/api/update/not-an-id', admin.headers, fields());
      expect(badId.statusCode).toBe(400);
      const audit = await t.rt.database.db.select().from(auditLog).where(eq(auditLog.targetId, id));
      expect(audit.filter((a) => a.action === 'product.update')).toHaveLength(2);
      expect(audit.find((a) => a.action === 'product.update')!.details).toMatchObject({
        changed: { productPrice: { from: 45000, to: 99000 } },
      });
    });

    it('deletes softly: gone from the catalogue, but a job bought before keeps its product', async () => {
      const db = t.rt.database.db;
      const [order] = await db
        .insert(orders)
        .values({
          companyId: company.id,
          txRef: `tx-${id}`,
          amount: 9_900_000,
          provider: 'sandbox',
          title: 'x',
          lines: [],
          status: 'paid',
        })
        .returning();
      const [job] = await db
        .insert(jobs)
        .values({ orderId: order.id, lineNo: 1, companyId: company.id, productId: id, quantity: 1, amount: 9_900_000 })
        .returning();

      const del = await t.app.inject({ method: 'DELETE', url: `/api/delete/${id}`, headers: admin.headers });
      expect(del.statusCode).toBe(200);
      expect(del.json()).toEqual({ status: 'success', message: messages.productDeleted });
      const list = await t.app.inject({ method: 'GET', url: '/product-api/products' });
      expect(list.json().products.map((p: { _id: string }) => p._id)).not.toContain(id);
      expect((await t.app.inject({ method: 'GET', url: `/product-api/product/${id}` })).statusCode).toBe(404);
      expect((await send('PUT', `/api/update/${id}`, admin.headers, fields())).statusCode).toBe(404);

      const [view] = await findJobViews(db, eq(jobs.id, job.id), { now: new Date() });
      expect(view.productId).toMatchObject({ _id: id, productName: 'Trademark Filing' });

      // Deleting again changes nothing and answers the same; an unknown product is 404.
      const again = await t.app.inject({ method: 'DELETE', url: `/api/delete/${id}`, headers: admin.headers });
      expect(again.statusCode).toBe(200);
      const deletes = await db.select().from(auditLog).where(eq(auditLog.action, 'product.delete'));
      expect(deletes.filter((d) => d.targetId === id)).toHaveLength(1);
      const unknown = await t.app.inject({
        method: 'DELETE',
        url: '/api/delete/4f1c7e2a-0000-4000-8000-000000000000',
        headers: admin.headers,
      });
      expect(unknown.statusCode).toBe(404);
    });
  });
});

describeEachDb('catalogue: the starting catalogue', (kind) => {
  const seedWith = (t: TestApp) =>
    seedCatalogue({ db: t.rt.database.db, storage: t.rt.storage, clock: t.clock, config: t.config });

  it('is skipped when SEED_CATALOGUE is false (as in the other tests)', async () => {
    const t = await createTestApp(kind);
    try {
      expect(t.config.SEED_CATALOGUE).toBe(false);
      expect(await seedWith(t)).toBe('disabled');
      expect(await t.rt.database.db.select().from(products)).toHaveLength(0);
      expect(await t.rt.database.db.select().from(appSettings)).toHaveLength(0);
    } finally {
      await t.close();
    }
  });

  it('fills an empty marketplace once with real products in three areas, with pictures that ship with it', async () => {
    const t = await createTestApp(kind, { SEED_CATALOGUE: 'true' });
    try {
      expect(await seedWith(t)).toBe('seeded');
      const res = await t.app.inject({ method: 'GET', url: '/product-api/products' });
      const list = res.json().products as Array<{
        productName: string;
        productPrice: number;
        productDescription: string;
        productImage: string;
        category: string;
      }>;
      expect(list.length).toBeGreaterThanOrEqual(9);
      const areas = new Set(list.map((p) => p.category));
      expect([...areas].sort()).toEqual(['Contract Law', 'Employment Law', 'Intellectual Property']);
      expect(new Set(list.map((p) => p.productName)).size).toBe(list.length);
      for (const p of list) {
        expect(Number.isInteger(p.productPrice) && p.productPrice >= 10_000).toBe(true);
        expect(p.productDescription).toMatch(/7-10 working days/);
        const pic = await t.app.inject({ method: 'GET', url: p.productImage });
        expect(pic.statusCode).toBe(200);
        expect(pic.headers['content-type']).toBe('image/png');
        expect(pic.rawPayload.length).toBeLessThan(30_000);
      }
      expect(list[0].productName).toBe('Contract Review');

      // Starting again does nothing.
      expect(await seedWith(t)).toBe('already-seeded');
      expect(await t.rt.database.db.select().from(products)).toHaveLength(list.length);

      // Even when an admin later removes every product, the catalogue is not refilled.
      const admin = await signupAndLogin(t, 'admin');
      for (const p of list) {
        const id = (p as unknown as { _id: string })._id;
        expect(
          (await t.app.inject({ method: 'DELETE', url: `/api/delete/${id}`, headers: admin.headers })).statusCode,
        ).toBe(200);
      }
      expect(await seedWith(t)).toBe('already-seeded');
      const after = await t.app.inject({ method: 'GET', url: '/product-api/products' });
      expect(after.json().results).toBe(0);
    } finally {
      await t.close();
    }
  });

  it('never touches a catalogue an admin has already started', async () => {
    const t = await createTestApp(kind, { SEED_CATALOGUE: 'true' });
    try {
      const admin = await signupAndLogin(t, 'admin');
      const body = await multipart([
        { name: 'productName', value: 'Our Own Product' },
        { name: 'productPrice', value: '10000' },
        { name: 'productDescription', value: 'Made by the admin.' },
        { name: 'productImage', file: { data: pngBytes(), filename: 'own.png' } },
      ]);
      const made = await t.app.inject({
        method: 'POST',
        url: '/api/create',
        headers: { ...body.headers, ...admin.headers },
        payload: body.payload,
      });
      expect(made.statusCode).toBe(201);
      expect(await seedWith(t)).toBe('catalogue-not-empty');
      expect(await seedWith(t)).toBe('already-seeded');
      const list = await t.app.inject({ method: 'GET', url: '/product-api/products' });
      expect(list.json().products.map((p: { productName: string }) => p.productName)).toEqual(['Our Own Product']);
    } finally {
      await t.close();
    }
  });
});
