import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { apiLogin, createAccount, loginAs, PASSWORD, uniqueEmail, waitForMail } from './helpers';

// Issue 18, traps 3, 8, 10 and 11: what a founder meets first on a 360 px phone.
test.use({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });

// The longest real content: one unbroken word, long names, a long file name, a long address.
const LONG_WORD = 'Supercalifragilisticexpialidocious'.repeat(4);
const LONG_FILE = 'Shareholders-agreement-Ada-Ventures-Limited-final-signed-version-2026.pdf';
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

const catalogue = async (request: APIRequestContext) =>
  (
    (await (await request.get('/product-api/products')).json()) as {
      products: Array<{ _id: string; productName: string; category: string | null }>;
    }
  ).products;

async function upload(request: APIRequestContext, headers: Record<string, string>, name: string) {
  const res = await request.post('/api/uploads?kind=document', {
    headers,
    multipart: { kind: 'document', file: { name, mimeType: 'application/pdf', buffer: PDF } },
  });
  expect(res.ok(), await res.text()).toBe(true);
  return ((await res.json()) as { data: { url: string; fileName: string } }).data;
}

async function longCompany(request: APIRequestContext) {
  const email = uniqueEmail('averyveryverylongcontactaddress.for.the.founders');
  const res = await request.post('/api/company/signup', {
    data: {
      companyName: `Ada ${LONG_WORD.slice(0, 60)} Ventures Limited`,
      contactName: 'Adaeze Oluwaseun-Chukwuemeka Obi',
      phoneNumber: '08012345678',
      officialEmail: email,
      officeAddress: '12 Marina, Lagos Island, Lagos',
      industry: 'Fintech',
      password: PASSWORD,
      passwordConfirm: PASSWORD,
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  const mail = await waitForMail(request, email, /Confirm/);
  const token = /token=([\w-]+)/.exec(mail.text)![1];
  expect((await request.post('/api/confirm-email', { data: { token } })).status()).toBe(200);
  return email;
}

const sideways = (page: Page) =>
  page.evaluate(() => document.scrollingElement!.scrollWidth - document.documentElement.clientWidth);

async function fits(page: Page, path: string) {
  await page.goto(path);
  await expect(page.locator('main')).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(await sideways(page), `${path} scrolls sideways at 360 px`).toBeLessThanOrEqual(0);
  expect(
    await page.evaluate(() => document.scrollingElement!.scrollWidth),
    `${path} is wider than the phone`,
  ).toBeLessThanOrEqual(360);
}

/** Where a text wraps: every line must end at a space or a separator, never inside a word. */
async function breaksOnlyAtSeparators(el: Locator) {
  const bad = await el.evaluate((node) => {
    const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
    const chars: Array<{ ch: string; top: number }> = [];
    for (let t = walker.nextNode(); t; t = walker.nextNode()) {
      const text = t.textContent ?? '';
      for (let i = 0; i < text.length; i++) {
        const r = document.createRange();
        r.setStart(t, i);
        r.setEnd(t, i + 1);
        const rect = r.getClientRects()[0];
        if (rect) chars.push({ ch: text[i], top: Math.round(rect.top) });
      }
    }
    const wrongs: string[] = [];
    for (let i = 1; i < chars.length; i++) {
      if (chars[i].top > chars[i - 1].top + 2 && !/[\s@._\-/]/.test(chars[i - 1].ch) && chars[i].ch !== ' ')
        wrongs.push(`${chars[i - 1].ch}|${chars[i].ch}`);
    }
    return wrongs;
  });
  expect(bad, 'breaks inside a word').toEqual([]);
}

async function overlaps(page: Page, target: Locator) {
  const chat = page.getByRole('link', { name: /Chat with LegalMarket support/ });
  const results: boolean[] = [];
  for (const block of ['start', 'center', 'end'] as const) {
    await target.evaluate((el, b) => el.scrollIntoView({ block: b }), block);
    const t = await target.boundingBox();
    const floating = await chat.evaluateAll((els) =>
      els
        .filter((e) => getComputedStyle(e).position === 'fixed' && e.getClientRects().length > 0)
        .map((e) => e.getBoundingClientRect().toJSON() as { x: number; y: number; width: number; height: number }),
    );
    for (const c of floating) {
      results.push(!!t && t.x < c.x + c.width && c.x < t.x + t.width && t.y < c.y + c.height && c.y < t.y + t.height);
    }
  }
  return results.some(Boolean);
}

test.describe('trap 3: nothing scrolls sideways, nothing is covered, nothing breaks mid-word', () => {
  test('every page fits 360 px with long words, names and file names', async ({ page, request }) => {
    test.setTimeout(240_000);
    const products = await catalogue(request);
    const product = products[0];
    const companyEmail = await longCompany(request);
    const company = await apiLogin(request, companyEmail);
    // A review with one long word, as a visitor sees it on the product page.
    const review = await request.post('/api/rating', {
      headers: company.headers,
      data: {
        productId: product._id,
        reviewTitle: LONG_WORD.slice(0, 100),
        review: `Great ${LONG_WORD} service`,
        status: 5,
      },
    });
    expect(review.status(), await review.text()).toBe(201);
    const file = await upload(request, company.headers, LONG_FILE);
    expect(
      (
        await request.post('/api/cart', {
          headers: company.headers,
          data: { productId: product._id, quantity: 1, detail: LONG_WORD, file: file.url, fileName: LONG_FILE },
        })
      ).status(),
    ).toBe(201);

    for (const path of [
      '/',
      '/products',
      `/pre-cart/${product._id}`,
      '/about-us',
      '/cart',
      '/login',
      '/password-reset',
    ])
      await fits(page, path);

    // The password-reset code page (six boxes).
    await page.goto('/password-reset');
    await page.getByLabel('Email address').fill(companyEmail);
    await page.locator('main').getByRole('button').last().click();
    await expect(page).toHaveURL(/\/otp\//);
    expect(await sideways(page), 'the six code boxes fit').toBeLessThanOrEqual(0);

    await loginAs(page, companyEmail);
    for (const path of ['/company/dashboard', `/company/profile/${company.id}`, '/cart', '/products'])
      await fits(page, path);

    const lawyerEmail = await createAccount(request, 'lawyer');
    const lawyer = await loginAs(page, lawyerEmail);
    for (const path of [
      '/lawyer/dashboard',
      `/lawyer/profile/${lawyer.data.user._id}`,
      '/lawyer/get-paid',
      '/lawyer/otp',
      `/lawyer/available-jobs/${lawyer.data.user._id}`,
    ])
      await fits(page, path);

    const adminEmail = await createAccount(request, 'admin');
    await loginAs(page, adminEmail);
    for (const path of [
      '/admin/dashboard',
      '/admin/companies',
      '/admin/lawyers',
      '/admin/jobs',
      '/admin/ratings',
      '/admin/payment',
      '/admin/new-product',
      '/admin/ledger',
      '/admin/payouts',
    ])
      await fits(page, path);
  });

  test('tabs and the admin menu show every choice on a phone', async ({ page, request }) => {
    /** Every item lies whole within the phone's width: none cut off or hidden in a sideways scroll. */
    const allInSight = async (list: Locator) => {
      // The page may still be loading: wait for the first item before counting them.
      await expect(list.first()).toBeVisible();
      const items = await list.all();
      expect(items.length).toBeGreaterThan(1);
      for (const item of items) {
        // Scroll the page down to it, never a scrolling bar sideways (that would hide the trap).
        await item.evaluate((el) => window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 200));
        const box = (await item.boundingBox())!;
        expect(box.x, await item.innerText()).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width, await item.innerText()).toBeLessThanOrEqual(360);
        await expect(item).toBeInViewport({ ratio: 1 });
      }
    };
    await page.goto('/');
    // How it Works is three numbered steps now, stacked on a phone, not tabs (decision 1830).
    await allInSight(page.getByRole('region', { name: 'How it Works' }).getByRole('listitem'));

    await loginAs(page, await createAccount(request, 'admin'));
    await page.goto('/admin/jobs');
    await allInSight(page.getByRole('tablist', { name: 'Jobs' }).getByRole('tab'));
    await allInSight(page.getByRole('navigation', { name: 'Admin menu' }).getByRole('link'));
  });

  test('the chat button covers neither Next, the expertise buttons nor Clear Cart', async ({ page, request }) => {
    await page.goto('/signup/asacompany');
    expect(await overlaps(page, page.getByRole('button', { name: 'Next' }))).toBe(false);

    const lawyer = await loginAs(page, await createAccount(request, 'lawyer'));
    await page.goto(`/lawyer/profile/${lawyer.data.user._id}`);
    await page.getByRole('button', { name: 'Update your details' }).first().click();
    for (const b of await page.locator('button[aria-pressed]').all()) expect(await overlaps(page, b)).toBe(false);

    const companyEmail = await createAccount(request, 'company');
    const company = await apiLogin(request, companyEmail);
    const [product] = await catalogue(request);
    await request.post('/api/cart', { headers: company.headers, data: { productId: product._id, quantity: 1 } });
    await loginAs(page, companyEmail);
    await page.goto('/cart');
    expect(await overlaps(page, page.getByRole('button', { name: 'Clear Cart' }))).toBe(false);
    // Support stays one tap away on a phone.
    await expect(page.getByRole('link', { name: /Chat with LegalMarket support/ })).toBeVisible();
  });

  test('file names and e-mail addresses wrap between their parts, not inside a word', async ({ page, request }) => {
    const companyEmail = await longCompany(request);
    const company = await apiLogin(request, companyEmail);
    const [product] = await catalogue(request);
    const file = await upload(request, company.headers, LONG_FILE);
    await request.post('/api/cart', {
      headers: company.headers,
      data: { productId: product._id, quantity: 1, detail: 'Brief', file: file.url, fileName: LONG_FILE },
    });
    await loginAs(page, companyEmail);
    await page.goto('/cart');
    await breaksOnlyAtSeparators(page.getByText(LONG_FILE).first());

    await loginAs(page, await createAccount(request, 'admin'));
    const lawyerEmail = await createAccount(request, 'lawyer', uniqueEmail('chidinma.okonkwo-adeyemi.partner'));
    await page.goto('/admin/lawyers');
    await page.getByRole('tab', { name: 'Unverified' }).click();
    await page
      .getByRole('button', { name: /View more/ })
      .first()
      .click();
    const dialog = page.getByRole('dialog');
    const lawyerRow = dialog.getByText(lawyerEmail);
    if (await lawyerRow.count()) await breaksOnlyAtSeparators(lawyerRow.first());
    else await breaksOnlyAtSeparators(dialog.getByText(/@example\.ng/).first());
  });
});

test.describe('trap 8: payment messages say what happened', () => {
  // Each journey signs up, fills a cart and pays: generous on a shared, loaded machine.
  test.describe.configure({ timeout: 120_000 });
  async function openPayment(page: Page, request: APIRequestContext, lines = 2) {
    const companyEmail = await createAccount(request, 'company');
    const company = await apiLogin(request, companyEmail);
    const products = await catalogue(request);
    for (const p of products.slice(0, lines))
      expect(
        (
          await request.post('/api/cart', { headers: company.headers, data: { productId: p._id, quantity: 1 } })
        ).status(),
      ).toBe(201);
    await loginAs(page, companyEmail);
    await page.goto('/cart');
    await page.getByRole('button', { name: 'Purchase' }).click();
    const dialog = page.getByTestId('sandbox-checkout');
    await expect(dialog).toBeVisible();
    return { dialog, products };
  }

  test('the window names the order and shows ₦; closing it is not a failure', async ({ page, request }) => {
    const { dialog, products } = await openPayment(page, request, 2);
    await expect(dialog.getByRole('heading')).toContainText(products[0].productName);
    await expect(dialog.getByRole('heading')).toContainText('1 more');
    await expect(dialog.getByTestId('sandbox-amount')).toContainText('₦');
    await expect(dialog.getByRole('button', { name: /^Pay ₦/ })).toBeVisible();
    await dialog.getByRole('button', { name: 'Close payment' }).click();
    const result = page.getByRole('dialog');
    await expect(result).toContainText('Payment cancelled');
    await expect(result).not.toContainText('Payment failed');
  });

  async function payByCard(dialog: Locator, number: string, pin: string) {
    await dialog.getByLabel('Card number').fill(number);
    await dialog.getByLabel('Valid till').fill('09/32');
    await dialog.getByLabel('CVV').fill('564');
    await dialog.getByRole('button', { name: /^Pay / }).click();
    await dialog.getByLabel('Card PIN').fill(pin);
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await dialog.getByLabel('OTP').fill('12345');
    await dialog.getByRole('button', { name: 'Authorize payment' }).click();
  }

  test('a decline says why: insufficient funds, wrong PIN', async ({ page, request }) => {
    const { dialog } = await openPayment(page, request, 1);
    await payByCard(dialog, '5258 5859 2266 6506', '3310');
    await expect(page.getByRole('dialog').filter({ hasText: 'Payment failed' })).toContainText(/insufficient funds/i);
    await page.getByRole('dialog').getByRole('button').first().click();

    await page.getByRole('button', { name: 'Purchase' }).click();
    await payByCard(page.getByTestId('sandbox-checkout'), '5399 8346 9789 4723', '3310');
    await expect(page.getByRole('dialog').filter({ hasText: 'Payment failed' })).toContainText(/incorrect PIN/i);
  });

  test('no connection says so', async ({ page, request }) => {
    const { dialog } = await openPayment(page, request, 1);
    await dialog.getByRole('tab', { name: 'USSD' }).click();
    await page.context().setOffline(true);
    await dialog.getByRole('button', { name: 'I have completed this payment' }).click();
    await expect(page.getByRole('alert').or(page.getByRole('dialog')).first()).toContainText(/no internet connection/i);
    await expect(page.getByText('Session timeout, please login again')).toHaveCount(0);
    await page.context().setOffline(false);
  });

  test('the USSD code is digits only and a double tap on Continue sends no empty code', async ({ page, request }) => {
    const { dialog } = await openPayment(page, request, 1);
    const charges: Array<Record<string, unknown>> = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/api/checkout/sandbox/charge')) charges.push(r.postDataJSON() as Record<string, unknown>);
    });
    await dialog.getByRole('tab', { name: 'USSD' }).click();
    const code = await dialog.locator('strong.font-mono').innerText();
    expect(code).toMatch(/^\*\d+(\*\d+)+#$/);

    await dialog.getByRole('tab', { name: 'Card' }).click();
    await dialog.getByLabel('Card number').fill('5531 8866 5214 2950');
    await dialog.getByLabel('Valid till').fill('09/32');
    await dialog.getByLabel('CVV').fill('564');
    await dialog.getByRole('button', { name: /^Pay / }).click();
    await dialog.getByLabel('Card PIN').fill('3310');
    await dialog.getByRole('button', { name: 'Continue' }).dblclick();
    await expect(dialog.getByLabel('OTP')).toBeVisible();
    await page.waitForTimeout(500);
    expect(charges.filter((c) => !c.otp)).toEqual([]);
    await expect(dialog.getByRole('alert')).toHaveCount(0);
  });
});

test.describe('trap 10: admin actions that cannot be undone ask first', () => {
  test('Mark as Completed and Verify ask first; a lawyer can be rejected with a reason', async ({ page, request }) => {
    test.setTimeout(120_000);
    const adminEmail = await createAccount(request, 'admin');
    const admin = await apiLogin(request, adminEmail);
    const lawyerEmail = await createAccount(request, 'lawyer');
    const otherEmail = await createAccount(request, 'lawyer');
    const lawyerId = (await apiLogin(request, lawyerEmail)).id;
    await request.patch(`/api/verifylawyer/${lawyerId}`, { headers: admin.headers, data: { verified: true } });
    // A paid job, assigned: pending.
    const companyEmail = await createAccount(request, 'company');
    const company = await apiLogin(request, companyEmail);
    const [product] = await catalogue(request);
    await request.post('/api/cart', { headers: company.headers, data: { productId: product._id, quantity: 1 } });
    const { reference, amount } = (
      (await (await request.post('/api/checkout', { headers: company.headers })).json()) as {
        data: { reference: string; amount: number };
      }
    ).data;
    const charged = await request.post('/api/checkout/sandbox/charge', {
      headers: company.headers,
      data: { reference, amount, currency: 'NGN', paymentType: 'ussd' },
    });
    const transactionId = ((await charged.json()) as { data: { transaction_id: string } }).data.transaction_id;
    await request.post('/api/checkout/verify', { headers: company.headers, data: { reference, transactionId } });
    const jobs = (await (await request.get('/job-api/unassign', { headers: admin.headers })).json()) as Array<{
      _id: string;
    }>;
    expect(
      (await request.post('/job-api/assign', { headers: admin.headers, data: { jobId: jobs[0]._id, lawyerId } })).ok(),
    ).toBe(true);

    await loginAs(page, adminEmail);
    await page.goto('/admin/jobs');
    await page.getByRole('tab', { name: 'Pending jobs' }).click();
    await page
      .getByRole('button', { name: /^View more/ })
      .first()
      .click();
    await page.getByLabel('Mark as Completed').click();
    const ask = page.getByRole('dialog', { name: /complete/i });
    await expect(ask).toContainText(/cannot be undone/i);
    await ask.getByRole('button', { name: 'Cancel' }).click();
    expect(
      ((await (await request.get('/job-api/pendingjobs', { headers: admin.headers })).json()) as unknown[]).length,
    ).toBeGreaterThan(0);

    await page.goto('/admin/lawyers');
    await page.getByRole('tab', { name: 'Unverified' }).click();
    await page
      .getByRole('button', { name: /View more/ })
      .first()
      .click();
    await page.getByRole('button', { name: 'Verify Lawyer' }).click();
    await expect(page.getByRole('dialog', { name: /verify/i }).last()).toContainText(/Verify/);
    await page
      .getByRole('dialog', { name: /verify/i })
      .last()
      .getByRole('button', { name: 'Cancel' })
      .click();

    // Reject with a reason, next to Verify.
    const row = page.getByRole('listitem').filter({ hasText: 'Chidi Okeke' }).first();
    await expect(row).toBeVisible();
    await page.getByRole('button', { name: 'Reject' }).click();
    const reject = page.getByRole('dialog', { name: /reject/i });
    await reject.getByLabel(/reason/i).fill('Your SCN does not match the NBA roll; send your call certificate.');
    await reject.getByRole('button', { name: /Reject/ }).click();
    await expect(page.getByRole('status').or(page.getByRole('dialog')).first()).toContainText(/rejected/i);
    const mails = await Promise.race([
      waitForMail(request, otherEmail, /verification/i).catch(() => null),
      waitForMail(request, lawyerEmail, /not verified|rejected/i).catch(() => null),
    ]);
    expect(mails?.text).toContain('Your SCN does not match the NBA roll');
  });

  test('labels follow the spec: Companies in the menu, Clients on the page, ASSIGN and CREATE', async ({
    page,
    request,
  }) => {
    await loginAs(page, await createAccount(request, 'admin'));
    await page.goto('/admin/companies');
    await expect(
      page.getByRole('navigation', { name: 'Admin menu' }).getByRole('link', { name: 'Companies' }),
    ).toBeVisible();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Clients');
    await page.goto('/admin/new-product');
    await expect(page.getByRole('button', { name: 'CREATE' })).toBeVisible();
  });
});

test.describe('trap 11: the cart in the top bar and the service links', () => {
  test('on a phone the cart is in the top bar with a count', async ({ page, request }) => {
    const [a, b] = await catalogue(request);
    await page.goto('/');
    await page.evaluate(
      (items) => localStorage.setItem('reservedItems', JSON.stringify(items)),
      [a, b].map((p) => ({
        productId: p._id,
        productName: p.productName,
        productPrice: 1,
        productImage: '',
        quantity: 1,
      })),
    );
    await page.reload();
    const cart = page.getByRole('banner').getByRole('link', { name: /^Cart/ });
    await expect(cart).toBeVisible();
    await expect(cart).toHaveAccessibleName(/2 items/);

    // The visitor's two reservations would move into this company's cart at log-in (decision 1800).
    await page.evaluate(() => localStorage.removeItem('reservedItems'));
    const companyEmail = await createAccount(request, 'company');
    const company = await apiLogin(request, companyEmail);
    await request.post('/api/cart', { headers: company.headers, data: { productId: a._id, quantity: 1 } });
    await loginAs(page, companyEmail);
    await page.goto('/products');
    const companyCart = page.getByRole('banner').getByRole('link', { name: /^Cart/ });
    await expect(companyCart).toBeVisible();
    await expect(companyCart).toHaveAccessibleName(/1 item/);
  });

  test("the landing page's service links open that area's products", async ({ page, request }) => {
    const products = await catalogue(request);
    await page.goto('/');
    await page.getByRole('link', { name: 'See Intellectual Property services' }).click();
    await expect(page).toHaveURL(/\/products\?area=Intellectual/);
    const cards = page.getByRole('list', { name: 'Products' }).getByRole('listitem');
    const expected = products.filter((p) => p.category === 'Intellectual Property');
    expect(expected.length).toBeGreaterThan(0);
    await expect(cards).toHaveCount(expected.length);
    await expect(page.getByRole('heading', { name: /Intellectual Property/ })).toBeVisible();
  });
});
