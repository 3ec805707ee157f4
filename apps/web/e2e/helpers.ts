import { expect, type APIRequestContext, type Page } from '@playwright/test';

export const PASSWORD = 'Str0ng!Pass';
export const uniqueEmail = (prefix: string) => `${prefix}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.ng`;

interface Mail {
  to: string;
  subject: string;
  text: string;
}

/** Reads the development mailbox (the outbox) until a mail to `to` matching `subject` arrives. */
export async function waitForMail(request: APIRequestContext, to: string, subject: RegExp): Promise<Mail> {
  let found: Mail | undefined;
  await expect
    .poll(
      async () => {
        const res = await request.get(`/dev/mailbox?format=json&to=${encodeURIComponent(to)}`);
        const body = (await res.json()) as { data: { mails: Mail[] } };
        found = body.data.mails.find((m) => subject.test(m.subject));
        return Boolean(found);
      },
      { timeout: 10_000 },
    )
    .toBe(true);
  return found!;
}

export const linkIn = (text: string) => /(https?:\/\/\S+)/.exec(text)![1];
export const codeIn = (text: string) => /\b(\d{6})\b/.exec(text)![1];

/** Creates and confirms an account through the API (faster than clicking through sign-up). */
export async function createAccount(
  request: APIRequestContext,
  type: 'company' | 'lawyer' | 'admin',
  email = uniqueEmail(type),
) {
  const body =
    type === 'admin'
      ? {
          name: 'Amaka Admin',
          phoneNumber: '08011112222',
          officialEmail: email,
          password: PASSWORD,
          passwordConfirm: PASSWORD,
          inviteCode: 'e2e-admin-invite-code',
        }
      : type === 'company'
        ? {
            companyName: 'Ada Ventures Ltd',
            contactName: 'Ada Obi',
            phoneNumber: '08012345678',
            officialEmail: email,
            officeAddress: '12 Marina, Lagos',
            industry: 'Fintech',
            password: PASSWORD,
            passwordConfirm: PASSWORD,
          }
        : {
            name: 'Chidi Okeke',
            officialEmail: email,
            phoneNumber: '08087654321',
            areasOfPractise: ['Technology'],
            scn: 'SCN001234',
            password: PASSWORD,
            passwordConfirm: PASSWORD,
          };
  const res = await request.post(`/api/${type}/signup`, { data: body });
  expect(res.status()).toBe(201);
  const mail = await waitForMail(request, email, /Confirm/);
  const token = /token=([\w-]+)/.exec(mail.text)![1];
  expect((await request.post('/api/confirm-email', { data: { token } })).status()).toBe(200);
  return email;
}

/** Logs in through the API: the token, the user id and ready-made bearer headers. */
export async function apiLogin(request: APIRequestContext, email: string, password = PASSWORD) {
  const res = await request.post('/api/login', { data: { officialEmail: email, password } });
  expect(res.status()).toBe(200);
  const body = (await res.json()) as { token: string; data: { user: { _id: string } } };
  return { token: body.token, id: body.data.user._id, headers: { authorization: `Bearer ${body.token}` } };
}

/** Logs in through the API and stores the session the way the login page does. */
export async function loginAs(page: Page, email: string, password = PASSWORD) {
  const res = await page.request.post('/api/login', { data: { officialEmail: email, password } });
  expect(res.status()).toBe(200);
  const body = (await res.json()) as { token: string; data: { user: { _id: string; userType: string } } };
  await page.goto('/about-us');
  await page.evaluate((b) => {
    localStorage.setItem('userToken', b.token);
    localStorage.setItem('userType', b.data.user.userType);
    localStorage.setItem('userId', b.data.user._id);
  }, body);
  return body;
}

/** A company buys one product with a detail, paying with the sandbox's success card. */
export async function paidJob(request: APIRequestContext, detail: string) {
  const catalogue = (await (await request.get('/product-api/products')).json()) as {
    products: Array<{ _id: string; productName: string }>;
  };
  const product = catalogue.products[0];
  expect(product, 'the seeded catalogue has a product').toBeTruthy();
  const companyEmail = await createAccount(request, 'company');
  const company = await apiLogin(request, companyEmail);
  const added = await request.post('/api/cart', {
    headers: company.headers,
    data: { productId: product._id, quantity: 1, detail },
  });
  expect(added.ok()).toBe(true);
  const started = await request.post('/api/checkout', { headers: company.headers });
  expect(started.status()).toBe(200);
  const { reference, amount } = ((await started.json()) as { data: { reference: string; amount: number } }).data;
  const charge = await request.post('/api/checkout/sandbox/charge', {
    headers: company.headers,
    data: {
      reference,
      amount,
      currency: 'NGN',
      paymentType: 'card',
      cardNumber: '5531 8866 5214 2950',
      pin: '3310',
      otp: '12345',
    },
  });
  expect(charge.status()).toBe(200);
  const transactionId = ((await charge.json()) as { data: { transaction_id: string } }).data.transaction_id;
  const verified = await request.post('/api/checkout/verify', {
    headers: company.headers,
    data: { reference, transactionId },
  });
  expect(verified.status()).toBe(200);
  return { company, companyEmail, productName: product.productName };
}
