import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, describeEachDb, signupAndLogin, type TestApp } from './helpers.js';
import { is2xx, specClient, type Data } from './spec-client-kit.js';
import { pngBytes } from './upload-helpers.js';

/**
 * "All calls go to one backend base address, with JSON headers" (both documents, section 7), and the
 * product edit row "PUT /api/update/{id} | same multipart". Under a JSON Content-Type, axios sends a
 * FormData as JSON: the text fields become an object and a File becomes `{}` (decision 2325).
 */
describeEachDb('a spec client’s JSON headers on the product edit form', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  const client = (userToken?: string) => specClient(t.app, userToken);

  it('PUT /api/update/{id} sent as JSON saves the text fields and keeps the picture', async () => {
    const admin = await signupAndLogin(t, 'admin');
    const api = client(admin.token);
    const image = new Blob([new Uint8Array(pngBytes(8, 8))], { type: 'image/png' });
    const created = is2xx(
      await api.form('POST', '/api/create', {
        productName: 'JSON Edit Product',
        productPrice: '15000',
        productDescription: 'Made with a form.',
        productImage: image,
      }),
    ).product;
    const picture = created.productImage as string;

    // The edit form as screen 8 holds it: name, price (digits), description and the product's picture URL.
    const saved = await api.put(`/api/update/${created._id}`, {
      productName: 'JSON Edit Product, Renamed',
      productPrice: '16000',
      productDescription: 'Edited with JSON headers.',
      productImage: picture,
    });
    expect(is2xx(saved).message).toBe('Product Updated');
    expect(saved.data.product).toMatchObject({
      _id: created._id,
      productName: 'JSON Edit Product, Renamed',
      productPrice: 16_000,
      productDescription: 'Edited with JSON headers.',
      productImage: picture,
    });

    // The price as a JSON number, and the product as read sent back whole (nulls, lists, numbers).
    const read = is2xx(await client().get(`/product-api/product/${created._id}`));
    const again = is2xx(await api.put(`/api/update/${created._id}`, { ...read, productPrice: 17000 }));
    expect(again.product).toMatchObject({ productName: 'JSON Edit Product, Renamed', productPrice: 17_000 });
    expect(again.product.productImage).toBe(picture);
    const one = is2xx(await client().get(`/product-api/product/${created._id}`));
    expect(one).toMatchObject({ productPrice: 17_000, productImage: picture, included: [], area: null });

    // The field rules stay those of the form.
    const noName = await api.put(`/api/update/${created._id}`, {
      productPrice: '16000',
      productDescription: 'x',
    });
    expect(noName.status).toBe(400);
    expect(noName.data.message).toBe('Please enter the product name');
  });

  it('PUT /api/update/{id} as JSON with a new picture chosen (a File made `{}`) says to send the form', async () => {
    const admin = await signupAndLogin(t, 'admin');
    const api = client(admin.token);
    const image = new Blob([new Uint8Array(pngBytes(8, 8))], { type: 'image/png' });
    const created = is2xx(
      await api.form('POST', '/api/create', {
        productName: 'JSON Picture Product',
        productPrice: '15000',
        productDescription: 'Made with a form.',
        productImage: image,
      }),
    ).product;
    const refused = await api.put(`/api/update/${created._id}`, {
      productName: 'JSON Picture Product',
      productPrice: '15000',
      productDescription: 'Made with a form.',
      productImage: {},
    });
    expect(refused.status).toBe(415);
    expect(refused.data.message).toMatch(/multipart\/form-data/);
    // Nothing was saved: the picture the admin chose did not arrive.
    const one: Data = is2xx(await client().get(`/product-api/product/${created._id}`));
    expect(one.productImage).toBe(created.productImage);
  });
});
