import { afterAll, beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { messages } from '@legalmarket/contracts';
import { products } from '../../db/schema.js';
import { createTestApp, describeEachDb, signupAndLogin, type TestApp } from '../../../test/helpers.js';
import { insertProduct } from '../../../test/commerce-helpers.js';
import { uploadDocument } from '../../../test/upload-helpers.js';

describeEachDb('cart', (kind) => {
  let t: TestApp;
  let a: Awaited<ReturnType<typeof signupAndLogin>>;
  let b: Awaited<ReturnType<typeof signupAndLogin>>;
  let nda: string;
  let tm: string;
  /** A document company A uploaded: a cart line names only the company's own uploads (issue 14). */
  let brief: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    a = await signupAndLogin(t, 'company');
    b = await signupAndLogin(t, 'company');
    nda = await insertProduct(t, 'Non-Disclosure Agreement', 25000);
    tm = await insertProduct(t, 'Trademark Registration', 150000);
    brief = (await uploadDocument(t.app, a.headers)).url;
  });
  afterAll(async () => t?.close());

  const add = (headers: Record<string, string>, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: '/api/cart', headers, payload });
  const get = (headers: Record<string, string>) => t.app.inject({ method: 'GET', url: '/api/cart', headers });

  it('answers 404 "Your cart is empty" for an empty cart', async () => {
    const res = await get(a.headers);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ status: 'fail', message: messages.cartEmpty });
  });

  it('adds products with catalogue prices, whatever price the client sends', async () => {
    const res = await add(a.headers, {
      productId: nda,
      quantity: 2,
      detail: 'Mutual NDA with a supplier',
      file: brief,
      fileName: 'brief.pdf',
      price: 1,
      productPrice: 1,
      bill: 1,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().message).toBe(messages.addedToCart);
    t.clock.advance(1000); // lines are listed in the order they were added
    await add(a.headers, { productId: tm, quantity: 1 });
    const cart = await get(a.headers);
    expect(cart.statusCode).toBe(200);
    const body = cart.json();
    expect(body).toHaveLength(1);
    expect(body[0].bill).toBe(25000 * 2 + 150000);
    expect(body[0].products).toEqual([
      {
        productId: nda,
        quantity: 2,
        detail: 'Mutual NDA with a supplier',
        file: brief,
        fileName: 'brief.pdf',
        price: 25000,
        productName: 'Non-Disclosure Agreement',
        productImage: expect.any(String),
      },
      {
        productId: tm,
        quantity: 1,
        detail: null,
        file: null,
        fileName: null,
        price: 150000,
        productName: 'Trademark Registration',
        productImage: expect.any(String),
      },
    ]);
  });

  it('updates the line when the product is already in the cart', async () => {
    await add(a.headers, { productId: nda, quantity: 5, detail: 'Changed my mind' });
    const body = (await get(a.headers)).json();
    const line = body[0].products.find((p: { productId: string }) => p.productId === nda);
    expect(line.quantity).toBe(5);
    expect(line.detail).toBe('Changed my mind');
    expect(body[0].products).toHaveLength(2);
    expect(body[0].bill).toBe(25000 * 5 + 150000);
  });

  it('follows the catalogue when a price changes', async () => {
    await t.rt.database.db
      .update(products)
      .set({ productPrice: 30000 * 100 })
      .where(eq(products.id, nda));
    const body = (await get(a.headers)).json();
    expect(body[0].bill).toBe(30000 * 5 + 150000);
    await t.rt.database.db
      .update(products)
      .set({ productPrice: 25000 * 100 })
      .where(eq(products.id, nda));
  });

  it('refuses quantities outside 1-10, bad ids, unknown products and unsafe file links', async () => {
    for (const quantity of [0, 11, 2.5, 'many']) {
      const res = await add(a.headers, { productId: nda, quantity });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/quantity/i);
    }
    expect((await add(a.headers, { productId: 'nope', quantity: 1 })).json().message).toMatch(/productId/);
    const unknown = await add(a.headers, { productId: '00000000-0000-4000-8000-000000000000', quantity: 1 });
    expect(unknown.statusCode).toBe(404);
    const js = await add(a.headers, { productId: nda, quantity: 1, file: 'javascript:alert(1)' });
    expect(js.statusCode).toBe(400);
    expect(js.json().message).toMatch(/file/);
  });

  it('hides a product removed from the catalogue and refuses to add it', async () => {
    const gone = await insertProduct(t, 'Retired Product', 1000);
    await add(a.headers, { productId: gone, quantity: 1 });
    await t.rt.database.db.update(products).set({ deletedAt: new Date() }).where(eq(products.id, gone));
    const body = (await get(a.headers)).json();
    expect(body[0].products.map((p: { productId: string }) => p.productId)).not.toContain(gone);
    expect((await add(a.headers, { productId: gone, quantity: 1 })).statusCode).toBe(404);
  });

  it('keeps carts apart: company B never sees or changes company A’s cart', async () => {
    expect((await get(b.headers)).statusCode).toBe(404);
    await add(b.headers, { productId: tm, quantity: 3 });
    const bCart = (await get(b.headers)).json();
    expect(bCart[0].products).toHaveLength(1);
    expect(bCart[0].bill).toBe(450000);
    // B clearing and removing touches only B's cart.
    await t.app.inject({ method: 'DELETE', url: `/api/cart/${nda}`, headers: b.headers });
    await t.app.inject({ method: 'POST', url: '/api/clear-cart', headers: b.headers });
    expect((await get(b.headers)).statusCode).toBe(404);
    expect((await get(a.headers)).json()[0].products).toHaveLength(2);
  });

  it('removes a product and clears the cart with the spec messages', async () => {
    const del = await t.app.inject({ method: 'DELETE', url: `/api/cart/${tm}`, headers: a.headers });
    expect(del.json()).toEqual({ status: 'success', message: messages.productRemovedFromCart });
    expect((await get(a.headers)).json()[0].products.map((p: { productId: string }) => p.productId)).toEqual([nda]);
    const again = await t.app.inject({ method: 'DELETE', url: `/api/cart/${tm}`, headers: a.headers });
    expect(again.statusCode).toBe(200);
    const clear = await t.app.inject({ method: 'POST', url: '/api/clear-cart', headers: a.headers });
    expect(clear.json()).toEqual({ status: 'success', message: messages.cartCleared });
    expect((await get(a.headers)).statusCode).toBe(404);
  });

  it('is for companies only', async () => {
    const lawyer = await signupAndLogin(t, 'lawyer');
    const admin = await signupAndLogin(t, 'admin');
    expect((await get({})).statusCode).toBe(401);
    expect((await add({}, { productId: nda, quantity: 1 })).statusCode).toBe(401);
    expect((await get(lawyer.headers)).statusCode).toBe(403);
    expect((await add(admin.headers, { productId: nda, quantity: 1 })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'POST', url: '/api/clear-cart', headers: lawyer.headers })).statusCode).toBe(
      403,
    );
  });
});
