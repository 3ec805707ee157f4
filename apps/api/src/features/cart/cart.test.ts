import { randomUUID } from 'node:crypto';
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

  it('adds to the line when the product is already in the cart, and says so (decision 1800)', async () => {
    const res = await add(a.headers, { productId: nda, quantity: 3, detail: 'Also one with a Kano distributor' });
    expect(res.statusCode).toBe(201);
    expect(res.json().message).toBe(messages.addedToCart);
    expect(res.json().notes).toEqual([
      'Non-Disclosure Agreement was already in your cart: the quantity is now 5, your brief was added after the one already there.',
    ]);
    const body = (await get(a.headers)).json();
    const line = body[0].products.find((p: { productId: string }) => p.productId === nda);
    expect(line).toMatchObject({
      quantity: 5,
      detail: 'Mutual NDA with a supplier\n\nAlso one with a Kano distributor',
      file: brief,
      fileName: 'brief.pdf',
    });
    expect(body[0].products).toHaveLength(2);
    expect(body[0].bill).toBe(25000 * 5 + 150000);
  });

  it('says only what changed, and nothing for a new line', async () => {
    const c = await signupAndLogin(t, 'company');
    expect((await add(c.headers, { productId: nda, quantity: 1, detail: 'Same brief' })).json().notes).toEqual([]);
    const same = await add(c.headers, { productId: nda, quantity: 1, detail: 'Same brief' });
    expect(same.json().notes).toEqual(['Non-Disclosure Agreement was already in your cart: the quantity is now 2.']);
    const doc = (await uploadDocument(t.app, c.headers)).url;
    const withDoc = await add(c.headers, { productId: nda, quantity: 1, file: doc, fileName: 'deck.pdf' });
    expect(withDoc.json().notes).toEqual([
      'Non-Disclosure Agreement was already in your cart: the quantity is now 3, your document was attached.',
    ]);
    expect((await get(c.headers)).json()[0].products[0]).toMatchObject({
      quantity: 3,
      detail: 'Same brief',
      file: doc,
      fileName: 'deck.pdf',
    });
  });

  it('refuses with 409 and changes nothing when the line would pass 10, hold two documents or a too long brief', async () => {
    const c = await signupAndLogin(t, 'company');
    const doc = (await uploadDocument(t.app, c.headers)).url;
    await add(c.headers, { productId: nda, quantity: 5, detail: 'x'.repeat(5000), file: doc, fileName: 'a.pdf' });
    const before = (await get(c.headers)).json();
    const many = await add(c.headers, { productId: nda, quantity: 6 });
    expect(many.statusCode).toBe(409);
    expect(many.json()).toEqual({
      status: 'fail',
      message:
        'Non-Disclosure Agreement is already in your cart 5 times; one line holds at most 10. Choose 5 or fewer.',
    });
    const other = (await uploadDocument(t.app, c.headers)).url;
    const twoDocs = await add(c.headers, { productId: nda, quantity: 1, file: other, fileName: 'b.pdf' });
    expect(twoDocs.statusCode).toBe(409);
    expect(twoDocs.json().message).toBe(
      'Non-Disclosure Agreement already has a document in your cart. Remove it from your cart to attach another one.',
    );
    const tooLong = await add(c.headers, { productId: nda, quantity: 1, detail: 'y'.repeat(5000) });
    expect(tooLong.statusCode).toBe(409);
    expect(tooLong.json().message).toMatch(/would pass 10000 characters/);
    expect((await get(c.headers)).json()).toEqual(before);
  });

  it('adds at the same moment to one line without losing a quantity or a brief', async () => {
    const c = await signupAndLogin(t, 'company');
    const answers = await Promise.all(
      Array.from({ length: 4 }, (_, i) => add(c.headers, { productId: tm, quantity: 2, detail: `Brief ${i}` })),
    );
    expect(answers.map((r) => r.statusCode)).toEqual([201, 201, 201, 201]);
    const [line] = (await get(c.headers)).json()[0].products;
    expect(line.quantity).toBe(8);
    expect(line.detail.split('\n\n').sort()).toEqual(['Brief 0', 'Brief 1', 'Brief 2', 'Brief 3']);
  });

  it('adds once under a key: sent again, at once or after a lost answer, it answers the cart unchanged', async () => {
    const c = await signupAndLogin(t, 'company');
    const keyed = (key: string) => ({ ...c.headers, 'idempotency-key': key });
    const once = keyed(randomUUID());
    const body = { productId: nda, quantity: 2, detail: 'For our supplier' };
    const both = await Promise.all([add(once, body), add(once, body)]);
    expect(both.map((r) => r.statusCode)).toEqual([201, 201]);
    // The retry after a timeout: the same success, the same cart, not one more.
    const retry = await add(once, body);
    expect(retry.statusCode).toBe(201);
    expect(retry.json().message).toBe(messages.addedToCart);
    expect(retry.json().notes).toEqual([]);
    expect(retry.json().data[0].products.map((p: { quantity: number }) => p.quantity)).toEqual([2]);
    expect((await get(c.headers)).json()[0].products[0]).toMatchObject({ quantity: 2, detail: 'For our supplier' });
    // A new key is a new addition, merged as before.
    expect((await add(keyed(randomUUID()), body)).json().data[0].products[0].quantity).toBe(4);
    // A refused addition keeps nothing of its key: sent again once there is room, it is added.
    const big = { productId: nda, quantity: 7 };
    const bigKey = keyed(randomUUID());
    expect((await add(bigKey, big)).statusCode).toBe(409);
    await t.app.inject({ method: 'DELETE', url: `/api/cart/${nda}`, headers: c.headers });
    expect((await add(bigKey, big)).json().data[0].products[0].quantity).toBe(7);
    // Its line removed in another tab, the same addition again answers the empty cart, not 404.
    await t.app.inject({ method: 'POST', url: '/api/clear-cart', headers: c.headers });
    const gone = await add(bigKey, big);
    expect(gone.statusCode).toBe(201);
    expect(gone.json().data).toEqual([{ products: [], bill: 0 }]);
    const bad = await add(keyed('not-a-uuid'), body);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Idempotency-Key must be a valid id');
  });

  it('a key names one addition of one product, apart from the reservation ids the cart remembers', async () => {
    const c = await signupAndLogin(t, 'company');
    const key = randomUUID();
    const keyed = { ...c.headers, 'idempotency-key': key };
    expect((await add(keyed, { productId: nda, quantity: 1 })).statusCode).toBe(201);
    // The same key sent with another product is another addition, not "added" with nothing added.
    const other = await add(keyed, { productId: tm, quantity: 2 });
    expect(other.statusCode).toBe(201);
    const lines = (await get(c.headers)).json()[0].products as Array<{ quantity: number }>;
    expect(lines.map((p) => p.quantity).sort()).toEqual([1, 2]);
    // A visitor's reservation whose id happens to be that key still moves in.
    const moved = await t.app.inject({
      method: 'POST',
      url: '/api/cart/reservations',
      headers: c.headers,
      payload: { items: [{ reservationId: key, productId: nda, quantity: 3 }] },
    });
    expect(moved.statusCode).toBe(200);
    const after = (await get(c.headers)).json()[0].products as Array<{ quantity: number }>;
    expect(after.map((p) => p.quantity).sort()).toEqual([2, 4]);
  });

  it('moves reservations into the cart once per reservation id, merged like an add', async () => {
    const c = await signupAndLogin(t, 'company');
    await add(c.headers, { productId: tm, quantity: 9, detail: 'Class 9 and 36' });
    t.clock.advance(1000); // the moved NDA line comes after it
    const move = (items: Array<Record<string, unknown>>, headers = c.headers) =>
      t.app.inject({ method: 'POST', url: '/api/cart/reservations', headers, payload: { items } });
    const gone = await insertProduct(t, 'Retired Reservation', 1000);
    await t.rt.database.db.update(products).set({ deletedAt: new Date() }).where(eq(products.id, gone));
    const items = [
      { reservationId: randomUUID(), productId: nda, quantity: 2, detail: 'Mutual NDA with a supplier in Kano' },
      { reservationId: randomUUID(), productId: tm, quantity: 3, detail: 'Logo too' },
      { reservationId: randomUUID(), productId: gone, quantity: 1 },
    ];
    const res = await move(items);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'success', message: messages.reservationsMoved });
    expect(res.json().notes).toEqual([
      'Trademark Registration was already in your cart: the quantity is now 10, the most one line holds, your brief was added after the one already there.',
      'A reserved product is no longer available and was not added.',
    ]);
    const lines = () => get(c.headers).then((r) => r.json()[0].products);
    const after = await lines();
    expect(after).toEqual([
      expect.objectContaining({ productId: tm, quantity: 10, detail: 'Class 9 and 36\n\nLogo too' }),
      expect.objectContaining({ productId: nda, quantity: 2, detail: 'Mutual NDA with a supplier in Kano' }),
    ]);
    expect(res.json().data[0].products).toEqual(after);

    // A retry, and two tabs sending the same reservations at once, change nothing.
    const again = await Promise.all([move(items), move(items), move(items.slice(0, 1))]);
    expect(again.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    expect(again.map((r) => r.json().notes)).toEqual([[], [], []]);
    expect(await lines()).toEqual(after);

    // Another company moving the same ids gets its own lines: ids are remembered per cart.
    const d = await signupAndLogin(t, 'company');
    const other = await move(items.slice(0, 1), d.headers);
    expect(other.json().data[0].products).toEqual([expect.objectContaining({ productId: nda, quantity: 2 })]);
  });

  it('answers an empty cart, not 404, when every reservation was skipped', async () => {
    const c = await signupAndLogin(t, 'company');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/cart/reservations',
      headers: c.headers,
      payload: {
        items: [{ reservationId: randomUUID(), productId: '00000000-0000-4000-8000-000000000000', quantity: 1 }],
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual([{ products: [], bill: 0 }]);
  });

  it('refuses a bad move with a 400 naming the field', async () => {
    const move = (payload: unknown) =>
      t.app.inject({ method: 'POST', url: '/api/cart/reservations', headers: a.headers, payload: payload as object });
    expect((await move({ items: [] })).json().message).toMatch(/items must hold at least one/);
    expect((await move({ items: [{ productId: nda, quantity: 1 }] })).json().message).toMatch(/reservationId/);
    expect((await move({ items: [{ reservationId: 'r1', productId: nda, quantity: 1 }] })).json().message).toMatch(
      /reservationId must be a valid id/,
    );
    const eleven = await move({ items: [{ reservationId: randomUUID(), productId: nda, quantity: 11 }] });
    expect(eleven.statusCode).toBe(400);
    expect(eleven.json().message).toMatch(/quantity/i);
    const many = Array.from({ length: 51 }, () => ({ reservationId: randomUUID(), productId: nda, quantity: 1 }));
    expect((await move({ items: many })).json().message).toMatch(/at most 50/);
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
    const move = (headers: Record<string, string>) =>
      t.app.inject({
        method: 'POST',
        url: '/api/cart/reservations',
        headers,
        payload: { items: [{ reservationId: randomUUID(), productId: nda, quantity: 1 }] },
      });
    expect((await move({})).statusCode).toBe(401);
    expect((await move(lawyer.headers)).statusCode).toBe(403);
    expect((await move(admin.headers)).statusCode).toBe(403);
  });
});
