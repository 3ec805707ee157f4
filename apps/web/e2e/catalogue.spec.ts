import { readFileSync } from 'node:fs';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { createAccount, loginAs, PASSWORD } from './helpers';

const png = readFileSync(new URL('../../api/seed/products/nda.png', import.meta.url));
const pdf = Buffer.from(
  '%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n% board resolution\ntrailer << /Root 1 0 R >>\n%%EOF\n',
);

interface ProductJson {
  _id: string;
  productName: string;
  productPrice: number;
}

async function catalogue(request: APIRequestContext): Promise<ProductJson[]> {
  const res = await request.get('/product-api/products');
  expect(res.status()).toBe(200);
  return ((await res.json()) as { products: ProductJson[] }).products;
}

const createAdmin = (request: APIRequestContext) => createAccount(request, 'admin');

const cardOf = (page: Page, name: string) =>
  page.getByRole('listitem').filter({ has: page.getByRole('link', { name }) });

test('an admin creates a product with an image, edits its price and sees it on /products', async ({
  page,
  request,
}) => {
  await loginAs(page, await createAdmin(request));
  await page.goto('/admin/new-product');
  await expect(page.getByRole('heading', { name: 'Create a product' })).toBeVisible();
  const create = page.getByRole('button', { name: 'CREATE' });
  await expect(create).toBeDisabled();

  const name = `Board Resolution ${Date.now()}`;
  await page.getByLabel('Product Name').fill(name);
  await page.getByLabel('Price').fill('45,000abc');
  await expect(page.getByLabel('Price')).toHaveValue('45000');
  await page.getByLabel('Description').fill('A lawyer drafts one board resolution for your company.');
  await expect(create).toBeDisabled(); // no image yet
  await page.getByLabel('Product Image').setInputFiles({ name: 'resolution.png', mimeType: 'image/png', buffer: png });
  await expect(create).toBeEnabled();
  await create.click();
  await expect(page.getByRole('status')).toContainText('New Product Created');

  await page.goto('/products');
  await expect(page.getByRole('heading', { name: 'Shop our products' })).toBeVisible();
  const card = cardOf(page, name);
  await expect(card).toContainText('₦45,000');
  // The picture really loads from the server (a decorative image: alt="").
  await expect.poll(() => card.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(640);

  await card.getByRole('button', { name: `Edit ${name}` }).click();
  await expect(page.getByRole('form', { name: 'Edit product' })).toBeVisible();
  await page.getByLabel('Price').fill('52000');
  await page.getByRole('button', { name: 'Update' }).click();
  await expect(page.getByRole('status')).toContainText('Product Updated');
  await expect(cardOf(page, name)).toContainText('₦52,000');

  // Cancel leaves the form without saving; delete asks first.
  await cardOf(page, name)
    .getByRole('button', { name: `Edit ${name}` })
    .click();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await cardOf(page, name)
    .getByRole('button', { name: `Delete ${name}` })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Delete this product?' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('status')).toContainText('Product deleted successfully');
  await expect(page.getByRole('link', { name })).toHaveCount(0);
  expect((await catalogue(request)).some((p) => p.productName === name)).toBe(false);
});

test('a visitor opens a product, reserves it and finds it in the cart', async ({ page }) => {
  await page.goto('/products');
  await page.getByRole('link', { name: /Non-Disclosure Agreement/ }).click();
  await expect(page).toHaveURL(/\/pre-cart\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Non-Disclosure Agreement' })).toBeVisible();
  await expect(page.getByText('₦25,000').first()).toBeVisible();
  await expect(page.getByText('Delivery is 7-10 working days after purchase')).toBeVisible();
  await expect(page.getByText('Log in as a company to attach a document.')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'You may also like' })).toBeVisible();

  const quantity = page.getByLabel('Quantity');
  await expect(quantity).toHaveValue('1');
  await quantity.selectOption('2');
  await page.getByLabel('Give details').fill('Mutual NDA with a supplier in Kano');
  await page.getByRole('button', { name: 'Reserve' }).click();
  await expect(page).toHaveURL(/\/cart$/);
  const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('reservedItems') ?? '[]'));
  expect(stored).toEqual([
    expect.objectContaining({
      productName: 'Non-Disclosure Agreement',
      productPrice: 25000,
      quantity: 2,
      detail: 'Mutual NDA with a supplier in Kano',
    }),
  ]);
  await expect(page.getByRole('link', { name: 'Non-Disclosure Agreement' }).first()).toBeVisible();
});

test('a company reserves a product with a detail and a document and finds it in its server cart', async ({
  page,
  request,
}) => {
  const session = await loginAs(page, await createAccount(request, 'company'));
  const product = (await catalogue(request)).find((p) => p.productName === 'Contract Review')!;
  await page.goto(`/pre-cart/${product._id}`);
  await page.getByLabel('Quantity').selectOption('3');
  await page.getByLabel('Give details').fill('Distribution agreement with a Lagos wholesaler');
  await page.getByLabel('Upload a document (optional)').setInputFiles({
    name: 'distribution-agreement.pdf',
    mimeType: 'application/pdf',
    buffer: pdf,
  });
  await expect(page.getByRole('link', { name: 'distribution-agreement.pdf' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Remove distribution-agreement.pdf' })).toBeVisible();
  await page.getByRole('button', { name: 'Reserve' }).click();
  await expect(page.getByRole('status')).toContainText('You have successfully added to cart');
  await expect(page).toHaveURL(/\/cart$/, { timeout: 10_000 });
  await expect(page.getByRole('link', { name: 'Contract Review' }).first()).toBeVisible();

  const cart = await request.get('/api/cart', { headers: { authorization: `Bearer ${session.token}` } });
  expect(cart.status()).toBe(200);
  const lines = ((await cart.json()) as Array<{ products: Array<Record<string, unknown>> }>)[0].products;
  expect(lines).toEqual([
    expect.objectContaining({
      productId: product._id,
      quantity: 3,
      detail: 'Distribution agreement with a Lagos wholesaler',
      fileName: 'distribution-agreement.pdf',
      file: expect.stringMatching(/^\/uploads\/[a-f0-9]{32}\.pdf$/),
    }),
  ]);

  // The confidential document downloads through its signed link from the cart.
  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'distribution-agreement.pdf' }).click();
  expect((await download).suggestedFilename()).toBe('distribution-agreement.pdf');
});

test('a company writes, edits and deletes a review and the average updates', async ({ page, request }) => {
  const product = (await catalogue(request)).find((p) => p.productName === 'Employment Contract')!;
  // Another company's review first, so the average moves with ours.
  const other = await request.post('/api/login', {
    data: { officialEmail: await createAccount(request, 'company'), password: PASSWORD },
  });
  const otherToken = ((await other.json()) as { token: string }).token;
  const first = await request.post('/api/rating', {
    headers: { authorization: `Bearer ${otherToken}` },
    data: { productId: product._id, reviewTitle: 'Solid', review: 'Clear contract.', status: 4 },
  });
  expect(first.status()).toBe(201);

  await loginAs(page, await createAccount(request, 'company'));
  await page.goto(`/pre-cart/${product._id}`);
  const summary = page.getByTestId('review-summary');
  await expect(summary).toContainText('4.0');
  await expect(summary).toContainText('Very Good');
  await expect(summary).toContainText('1 review');
  await expect(page.getByRole('button', { name: /Edit your review/ })).toHaveCount(0);

  const form = page.getByRole('form', { name: 'Write a review' });
  await form.getByRole('button', { name: 'Submit review' }).click();
  await expect(form.getByText('Please enter a review title')).toBeVisible();
  await form.getByLabel('Title').fill('Fast drafting');
  await form.getByRole('radio', { name: '1 star', exact: true }).click();
  await form.getByLabel('Your review').fill('Contract arrived quickly, but needed changes.');
  await form.getByRole('button', { name: 'Submit review' }).click();
  await expect(page.getByRole('status')).toContainText('Review Submitted Successfully');
  await expect(summary).toContainText('2.5'); // (4 + 1) / 2
  await expect(summary).toContainText('Poor');
  await expect(summary).toContainText('2 reviews');
  await expect(page.getByText(/\d+(st|nd|rd|th) [A-Z][a-z]+ \d{4}/).first()).toBeVisible();

  // Edit keeps the review: Cancel first, then save with five stars.
  await page.getByRole('button', { name: 'Edit your review Fast drafting' }).click();
  const edit = page.getByRole('form', { name: 'Edit your review' });
  await expect(edit.getByLabel('Title')).toHaveValue('Fast drafting');
  await edit.getByRole('button', { name: 'Cancel' }).click();
  // One review per company and product (decision 2001): no second form while ours stands.
  await expect(page.getByText('You have reviewed this product. Use Edit on your review to change it.')).toBeVisible();
  await expect(page.getByRole('form', { name: 'Write a review' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Edit your review Fast drafting' }).click();
  await page.getByRole('form', { name: 'Edit your review' }).getByRole('radio', { name: '5 stars' }).click();
  await page.getByRole('form', { name: 'Edit your review' }).getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('status')).toContainText('Review Updated Successfully');
  await expect(summary).toContainText('4.5'); // (4 + 5) / 2
  await expect(summary).toContainText('Excellent');
  await expect(summary).toContainText('2 reviews');

  await page.getByRole('button', { name: 'Delete your review Fast drafting' }).click();
  await page.getByRole('dialog', { name: 'Delete your review?' }).getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('status')).toContainText('Review deleted successfully');
  await expect(summary).toContainText('4.0');
  await expect(summary).toContainText('1 review');
  await expect(page.getByText('Fast drafting')).toHaveCount(0);
  await expect(page.getByRole('form', { name: 'Write a review' })).toBeVisible();
});
