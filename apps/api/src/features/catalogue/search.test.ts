import { afterAll, beforeAll, expect, it } from 'vitest';
import { products, reviews } from '../../db/schema.js';
import { createTestApp, describeEachDb, signupAndLogin, type TestApp } from '../../../test/helpers.js';
import { multipart, pngBytes, type Part } from '../../../test/upload-helpers.js';

type Login = Awaited<ReturnType<typeof signupAndLogin>>;

/** Issue 20, item 2: the catalogue's search and filters, done by the API; decision 2010. */
describeEachDb('catalogue: search and filters', (kind) => {
  let t: TestApp;
  let admin: Login;
  let company: Login;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    t = await createTestApp(kind);
    admin = await signupAndLogin(t, 'admin');
    company = await signupAndLogin(t, 'company');
    const rows = [
      { name: 'Non-Disclosure Agreement', price: 25_000, area: 'Contracts and Commercial', get: 'A mutual NDA' },
      {
        name: 'Contract Review',
        price: 35_000,
        area: 'Contracts and Commercial',
        get: 'A written review of one agreement',
      },
      {
        name: 'Trademark Filing',
        price: 120_000,
        area: 'Intellectual Property',
        get: 'Your trademark filed in one class',
      },
      {
        name: 'Employment Contract',
        price: 40_000,
        area: 'Employment and Labour',
        get: 'A contract template for one role',
      },
      { name: 'Ship Charter Review', price: 300_000, area: 'Maritime', get: null },
      { name: 'Old Product', price: 10_000, area: null, get: null },
    ];
    for (const [i, r] of rows.entries()) {
      const at = new Date(t.clock.now().getTime() - i * 1000);
      const [row] = await t.rt.database.db
        .insert(products)
        .values({
          productName: r.name,
          productPrice: r.price * 100,
          productDescription: `${r.name}, drafted under Nigerian law.`,
          productImage: '/uploads/p.png',
          area: r.area,
          whatYouGet: r.get,
          deliveryDays: r.area ? 10 : null,
          createdAt: at,
          updatedAt: at,
        })
        .returning();
      ids[r.name] = row.id;
    }
  });
  afterAll(() => t.close());

  const names = async (query: string) => {
    const res = await t.app.inject({ method: 'GET', url: `/product-api/products${query}` });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { results: number; products: Array<{ productName: string }> };
    expect(body.results).toBe(body.products.length);
    return body.products.map((p) => p.productName);
  };
  const refused = async (query: string) => {
    const res = await t.app.inject({ method: 'GET', url: `/product-api/products${query}` });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().status).toBe('fail');
    return res.json().message as string;
  };

  it('lists everything without filters, each product with its area, what you get and delivery time', async () => {
    expect(await names('')).toHaveLength(6);
    const res = await t.app.inject({ method: 'GET', url: '/product-api/products' });
    expect(res.json().products[0]).toMatchObject({
      productName: 'Non-Disclosure Agreement',
      area: 'Contracts and Commercial',
      whatYouGet: 'A mutual NDA',
      deliveryDays: 10,
      included: [],
      ratingAverage: null,
      ratingCount: 0,
    });
    expect(res.json().products[5]).toMatchObject({ area: null, whatYouGet: null, deliveryDays: null });
  });

  it('searches every word, in any case, across name, what you get, description and area', async () => {
    // The NDA's area is Contracts and Commercial.
    expect(await names('?q=contract')).toEqual(['Non-Disclosure Agreement', 'Contract Review', 'Employment Contract']);
    expect(await names('?q=REVIEW%20contract')).toEqual(['Contract Review']);
    expect(await names('?q=trademark')).toEqual(['Trademark Filing']);
    expect(await names('?q=mutual')).toEqual(['Non-Disclosure Agreement']);
    expect(await names('?q=maritime')).toEqual(['Ship Charter Review']);
    expect(await names('?q=nigerian')).toHaveLength(6);
    expect(await names('?q=%20%20')).toHaveLength(6);
    expect(await names('?q=nothing-like-this')).toEqual([]);
  });

  it('filters by area, also under the older names the landing page links with', async () => {
    expect(await names('?area=Contracts%20and%20Commercial')).toEqual(['Non-Disclosure Agreement', 'Contract Review']);
    expect(await names('?area=Contract%20Law')).toEqual(['Non-Disclosure Agreement', 'Contract Review']);
    expect(await names('?area=Employment%20Law')).toEqual(['Employment Contract']);
    expect(await names('?area=Intellectual%20Property')).toEqual(['Trademark Filing']);
    expect(await names('?area=Technology')).toEqual([]);
    expect(await names('?area=')).toHaveLength(6);
  });

  it('filters by price in naira, both bounds included, and combines every filter', async () => {
    expect(await names('?min=35000&max=120000')).toEqual([
      'Contract Review',
      'Trademark Filing',
      'Employment Contract',
    ]);
    expect(await names('?min=300000')).toEqual(['Ship Charter Review']);
    expect(await names('?max=25000')).toEqual(['Non-Disclosure Agreement', 'Old Product']);
    expect(await names('?min=&max=')).toHaveLength(6);
    expect(await names('?q=contract&area=Contracts%20and%20Commercial&min=30000&max=40000')).toEqual([
      'Contract Review',
    ]);
  });

  it('refuses a bad filter with 400 naming it', async () => {
    expect(await refused('?area=Cooking')).toMatch(/area/);
    expect(await refused('?min=abc')).toMatch(/min/);
    expect(await refused('?max=-5')).toMatch(/max/);
    expect(await refused('?min=1.5')).toMatch(/min/);
    expect(await refused('?max=99999999999')).toMatch(/max/);
    expect(await refused('?min=5000&max=100')).toMatch(/max must be at least min/);
    expect(await refused(`?q=${'a'.repeat(101)}`)).toMatch(/\bq\b/);
  });

  it('answers a filtered list with its own ETag, 304 until the catalogue changes', async () => {
    const url = '/product-api/products?area=Maritime';
    const first = await t.app.inject({ method: 'GET', url });
    const all = await t.app.inject({ method: 'GET', url: '/product-api/products' });
    expect(first.headers.etag).toBeTruthy();
    expect(first.headers.etag).not.toBe(all.headers.etag);
    const again = await t.app.inject({ method: 'GET', url, headers: { 'if-none-match': String(first.headers.etag) } });
    expect(again.statusCode).toBe(304);
    await t.app.inject({ method: 'DELETE', url: `/api/delete/${ids['Ship Charter Review']}`, headers: admin.headers });
    const after = await t.app.inject({ method: 'GET', url, headers: { 'if-none-match': String(first.headers.etag) } });
    expect(after.statusCode).toBe(200);
    expect(after.json().products).toEqual([]);
  });

  it('carries the rating: a new review moves the cached list and the product', async () => {
    const id = ids['Contract Review'];
    // One review per company and product (decision 2001): the second comes from another company.
    const other = await signupAndLogin(t, 'company');
    for (const [by, status] of [
      [company, 5],
      [other, 4],
    ] as const)
      await t.rt.database.db
        .insert(reviews)
        .values({ companyId: by.id, productId: id, reviewTitle: 'Good', review: 'Clear.', status });
    const list = await t.app.inject({ method: 'GET', url: '/product-api/products?q=review' });
    expect(list.json().products.find((p: { _id: string }) => p._id === id)).toMatchObject({
      ratingAverage: 4.5,
      ratingCount: 2,
    });
    const one = await t.app.inject({ method: 'GET', url: `/product-api/product/${id}` });
    expect(one.json()).toMatchObject({ ratingAverage: 4.5, ratingCount: 2 });
  });

  async function send(method: 'POST' | 'PUT', url: string, parts: Part[]) {
    const body = await multipart(parts);
    return t.app.inject({ method, url, headers: { ...body.headers, ...admin.headers }, payload: body.payload });
  }
  const text = (o: Record<string, string>) => Object.entries(o).map(([name, value]) => ({ name, value }));
  const base = { productName: 'Data Audit', productPrice: '80000', productDescription: 'A privacy audit.' };
  const picture: Part = { name: 'productImage', file: { data: pngBytes(6, 6), filename: 'a.png', type: 'image/png' } };

  it('lets the admin set the new fields; an update that leaves them out keeps them, an empty one clears', async () => {
    const made = await send('POST', '/api/create', [
      ...text({
        ...base,
        area: 'Data Protection and Privacy',
        whatYouGet: 'A written audit of how you keep personal data',
        deliveryDays: '7',
        included: 'Audit of your forms\n\n Privacy notice review ',
        youProvide: 'Your forms',
        notIncluded: 'Registration with the NDPC',
      }),
      picture,
    ]);
    expect(made.statusCode, made.body).toBe(201);
    const product = made.json().data.product;
    expect(product).toMatchObject({
      area: 'Data Protection and Privacy',
      deliveryDays: 7,
      included: ['Audit of your forms', 'Privacy notice review'],
      youProvide: ['Your forms'],
      notIncluded: ['Registration with the NDPC'],
    });
    expect(await names('?area=Data%20Protection%20and%20Privacy')).toEqual(['Data Audit']);
    const kept = await send('PUT', `/api/update/${product._id}`, text({ ...base, productPrice: '90000' }));
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json().data.product).toMatchObject({
      productPrice: 90_000,
      area: 'Data Protection and Privacy',
      deliveryDays: 7,
    });
    const cleared = await send('PUT', `/api/update/${product._id}`, text({ ...base, whatYouGet: '', included: '' }));
    expect(cleared.json().data.product).toMatchObject({ whatYouGet: null, included: [], deliveryDays: 7 });
  });

  it('refuses bad product fields with 400 naming them', async () => {
    const bad = async (over: Record<string, string>, message: RegExp) => {
      const res = await send('POST', '/api/create', [...text({ ...base, ...over }), picture]);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().message).toMatch(message);
    };
    await bad({ area: 'Cooking' }, /area of law/);
    await bad({ deliveryDays: '0' }, /Delivery time/);
    await bad({ deliveryDays: '91' }, /Delivery time/);
    await bad({ deliveryDays: 'ten' }, /Delivery time/);
    await bad({ whatYouGet: 'x'.repeat(141) }, /What you get/);
    await bad({ whatYouGet: 'one\ntwo' }, /What you get must be one line/);
  });
});
