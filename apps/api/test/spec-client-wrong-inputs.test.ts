import { afterAll, beforeAll, expect, it } from 'vitest';
import { lagosYear } from '@legalmarket/contracts';
import { insertJob } from './admin-fixtures.js';
import { insertProduct } from './commerce-helpers.js';
import { createTestApp, describeEachDb, signupAndLogin, type TestApp } from './helpers.js';
import { is2xx, specClient, type Data, type Response } from './spec-client-kit.js';

/**
 * What a client written only from the two spec documents sends wrong, and the clear 4xx it gets: a
 * number field ("quantity 1 to 10", "status (star number 1 to 5)", a lawyer review's `stars`) sent
 * as a boolean or a list (decision 2271), a table path called with another method (2272), and a year of
 * call still to come (2273). `response.data` is the JSON body, read only by the spec's names.
 */
describeEachDb('a spec client’s wrong inputs get a 4xx that names the problem', (kind) => {
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

  it('POST /api/cart: quantity as a boolean, a list or a hex text is refused; as digits it is read', async () => {
    const company = await signupAndLogin(t, 'company');
    const api = client(company.token);
    const productId = await insertProduct(t, 'Typed Cart Product', 10_000);
    for (const quantity of [true, false, [3], ['2'], '0x2', '1e1', '-2', {}])
      failsWith(await api.post('/api/cart', { productId, quantity }), 400, 'Quantity must be a number from 1 to 10');
    // Nothing reached the cart: the spec's empty cart is "not found".
    expect((await api.get('/api/cart')).status).toBe(404);

    // A select's value is text: the digits are still the quantity.
    is2xx(await api.post('/api/cart', { productId, quantity: ' 3 ' }));
    const cart = is2xx(await api.get('/api/cart'));
    expect(cart[0].products.find((p: Data) => p.productId === productId).quantity).toBe(3);
    failsWith(
      await api.post('/api/cart', { productId, quantity: '2.5' }),
      400,
      'Quantity must be a whole number from 1 to 10',
    );
  });

  it('POST and PATCH /api/rating: status as a boolean or a list is refused; as digits it is the stars', async () => {
    const company = await signupAndLogin(t, 'company');
    const api = client(company.token);
    const productId = await insertProduct(t, 'Typed Review Product', 9_000);
    const review = { review: 'Clear and quick.', reviewTitle: 'Good', productId };
    for (const status of [true, [5], ['4'], '0x4', '4e0', {}])
      failsWith(await api.post('/api/rating', { ...review, status }), 400, 'Please choose a star rating from 1 to 5');
    expect(is2xx(await client().get('/ratings-api/rating')).filter((r: Data) => r.productId === productId)).toEqual([]);

    const created = is2xx(await api.post('/api/rating', { ...review, status: '4' }));
    expect(created.status).toBe(4);
    failsWith(
      await api.patch(`/api/rating/${created._id}`, { ...review, status: true }),
      400,
      'Please choose a star rating from 1 to 5',
    );
    const [kept] = is2xx(await client().get('/ratings-api/rating')).filter((r: Data) => r._id === created._id);
    expect(kept.status).toBe(4);
  });
  it('POST and PATCH /api/lawyer-reviews: stars as a boolean, a list or a hex text is refused; as digits it is read', async () => {
    const [company, lawyer] = await Promise.all([
      signupAndLogin(t, 'company'),
      signupAndLogin(t, 'lawyer', { verified: true }),
    ]);
    const api = client(company.token);
    const job = await insertJob(t, company.id, { status: 'completed', lawyerId: lawyer.id });
    const review = { jobId: job.id, reviewTitle: 'On time', review: 'Clear advice, delivered on the day.' };
    for (const stars of [true, false, [5], ['4'], '0x4', '4e0', '-2', {}])
      failsWith(
        await api.post('/api/lawyer-reviews', { ...review, stars }),
        400,
        'Please choose a star rating from 1 to 5',
      );
    expect(is2xx(await api.get(`/api/lawyers/${lawyer.id}/reviews`)).data.count).toBe(0);

    const created = is2xx(await api.post('/api/lawyer-reviews', { ...review, stars: ' 4 ' })).data.review;
    expect(created.stars).toBe(4);
    const { jobId: _, ...fields } = review;
    for (const stars of [true, [5]])
      failsWith(
        await api.patch(`/api/lawyer-reviews/${created._id}`, { ...fields, stars }),
        400,
        'Please choose a star rating from 1 to 5',
      );
    expect(is2xx(await api.get(`/api/lawyers/${lawyer.id}/reviews`)).data.reviews[0].stars).toBe(4);
  });
  it('a table path called with another method answers 405 naming the methods it takes, not "Not found"', async () => {
    const company = await signupAndLogin(t, 'company');
    const api = client(company.token);
    const productId = await insertProduct(t, 'Method Product', 9_000);
    const created = is2xx(
      await api.post('/api/rating', { review: 'Fine.', reviewTitle: 'Fine', status: 3, productId }),
    );
    // The spec's "Statuses 401, 405, 500 and 409 all display the message": the message says what to send.
    const put = await t.app.inject({
      method: 'PUT',
      url: `/api/rating/${created._id}`,
      headers: { authorization: `Bearer ${company.token}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ review: 'Edited.', reviewTitle: 'Fine', status: 3, productId }),
    });
    expect(put.statusCode).toBe(405);
    expect(put.json().message).toBe('PUT is not allowed here. This address takes DELETE or PATCH.');
    expect(put.headers.allow).toBe('DELETE, PATCH');
    failsWith(await api.get('/api/login'), 405, 'GET is not allowed here. This address takes POST.');
    failsWith(await api.patch('/api/cart/', {}), 405, 'PATCH is not allowed here. This address takes GET or POST.');
    failsWith(await api.post('/job-api/company/pendingjobs'), 405, 'POST is not allowed here. This address takes GET.');
    // The review was not changed, and an address that does not exist is still "Not found".
    const [kept] = is2xx(await client().get('/ratings-api/rating')).filter((r: Data) => r._id === created._id);
    expect(kept.review).toBe('Fine.');
    failsWith(await api.get('/api/no-such-call'), 404, 'Not found');
    failsWith(await api.post('/api/no-such-call', {}), 404, 'Not found');
    // A method the address takes, finding nothing there (a missing file of the API's docs), is "Not found".
    for (const method of ['GET', 'HEAD'] as const) {
      const missing = await t.app.inject({ method, url: '/api/docs/static/no-such-file.js' });
      expect([missing.statusCode, missing.headers.allow]).toEqual([404, undefined]);
    }
    // The router reads the path decoded, and so does the answer.
    const escaped = await t.app.inject({ method: 'PUT', url: `/api/r%61ting/${created._id}` });
    expect([escaped.statusCode, escaped.headers.allow]).toEqual([405, 'DELETE, PATCH']);
  });
  it('PATCH /api/updateprofile: a year of call still to come is refused; this year is taken', async () => {
    const lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    const api = client(lawyer.token);
    const thisYear = lagosYear(t.clock.now());
    const url = `/api/updateprofile?_id=${lawyer.id}`;
    for (const yearOfCall of [String(thisYear + 1), '2099'])
      failsWith(await api.patchForm(url, { yearOfCall }), 400, `Year of call cannot be later than ${thisYear}`);
    expect(is2xx(await api.get(`/api/userprofile?_id=${lawyer.id}`)).yearOfCall).toBeNull();
    failsWith(await api.patchForm(url, { yearOfCall: 'soon' }), 400, 'Year of call must be a year such as 2015');

    const saved = is2xx(await api.patchForm(url, { yearOfCall: String(thisYear) }));
    expect(saved.message).toBe('Profile Updated Successfully');
    expect(saved.lawyer.yearOfCall).toBe(String(thisYear));
  });
});
