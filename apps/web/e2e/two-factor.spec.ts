import { createHmac } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { PASSWORD, apiLogin, createAccount, loginAs } from './helpers';

/** RFC 6238 (SHA-1, 6 digits, 30 s), as an authenticator app computes it from the key it was shown. */
function totp(base32: string, at = Date.now()) {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const ch of base32.replace(/[\s=]/g, '').toUpperCase())
    bits += alphabet.indexOf(ch).toString(2).padStart(5, '0');
  const key = Buffer.from(bits.match(/.{8}/g)!.map((b) => parseInt(b, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 1000 / 30)));
  const mac = createHmac('sha1', key).update(counter).digest();
  const offset = mac[mac.length - 1] & 0xf;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}
const stepOf = (at = Date.now()) => Math.floor(at / 1000 / 30);

test('an admin enrols an authenticator app and then signs in with its code', async ({ page }) => {
  test.setTimeout(120_000);
  const email = await createAccount(page.request, 'admin');
  await loginAs(page, email);

  // The admin menu leads to the two-factor page.
  await page.goto('/admin/dashboard');
  await page.getByRole('navigation', { name: 'Admin menu' }).getByRole('link', { name: 'Two-factor' }).click();
  await expect(page).toHaveURL(/\/account\/two-factor$/);
  await expect(page.getByTestId('two-factor-status')).toContainText('off');

  await page.getByLabel('Current password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
  const secret = (await page.getByTestId('two-factor-secret').innerText()).replace(/\s+/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await expect(page.getByTestId('two-factor-uri')).toContainText(`otpauth://totp/LegalMarket:`);
  await expect(page.getByTestId('two-factor-uri')).toContainText(`secret=${secret}`);
  await expect(page.getByRole('img', { name: 'QR code of the authenticator set-up' })).toBeVisible();

  const enrolStep = stepOf();
  await page.getByLabel('Code from the app').fill(totp(secret));
  await page.getByRole('button', { name: 'Turn on two-factor authentication' }).click();
  const codes = page.getByTestId('recovery-codes').getByRole('listitem');
  await expect(codes).toHaveCount(10);
  await expect(codes.first()).toHaveText(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
  await page.getByRole('button', { name: 'I have saved my recovery codes' }).click();
  await expect(page.getByTestId('two-factor-status')).toContainText('on');
  await expect(page.getByTestId('two-factor-status')).toContainText('10 recovery codes left');

  // Sign out, then sign in: the password alone is not enough any more.
  await page.evaluate(() => localStorage.clear());
  await page.goto('/login');
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  const codeField = page.getByRole('textbox', { name: 'Authentication code' });
  await expect(codeField).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('userToken'))).toBeNull();

  // A wrong code is refused with a message, and the form stays.
  const wrong = totp(secret) === '000000' ? '111111' : '000000';
  await codeField.fill(wrong);
  await page.getByRole('button', { name: 'Verify and log in' }).click();
  await expect(page.getByRole('dialog')).toContainText('The code is incorrect');
  await page.getByRole('dialog').getByRole('button').first().click();

  // The code used to enrol is spent: wait for the app's next code, as a person would.
  while (stepOf() === enrolStep) await page.waitForTimeout(500);
  await codeField.fill(totp(secret));
  await page.getByRole('button', { name: 'Verify and log in' }).click();
  await expect(page).toHaveURL(/\/admin\/dashboard$/, { timeout: 15_000 });
  expect(await page.evaluate(() => localStorage.getItem('userType'))).toBe('admin');
});

test('a money action in a session without a recent code asks for one, then goes through', async ({ page, request }) => {
  test.setTimeout(120_000);
  const email = await createAccount(request, 'admin');
  // The browser's session enrols (turning two-factor on ends every other session, decision 2181), then
  // forgets its code through the development shortcut, as if 15 minutes had passed.
  const browser = await loginAs(page, email);
  const mine = { authorization: `Bearer ${browser.token}` };
  const setup = await request.post('/api/two-factor/setup', { headers: mine, data: { password: PASSWORD } });
  const { secret } = ((await setup.json()) as { data: { secret: string } }).data;
  const enrolStep = stepOf();
  expect((await request.post('/api/two-factor/enable', { headers: mine, data: { code: totp(secret) } })).status()).toBe(
    200,
  );
  expect((await request.post('/dev/two-factor/forget-code', { headers: mine })).status()).toBe(200);

  await page.goto('/admin/payment');
  await page.getByRole('button', { name: 'Edit settlement account' }).click();
  const edit = page.getByRole('dialog', { name: /settlement/i });
  await edit.getByLabel('Account number').fill('0123456789');
  await edit.getByLabel('Account name').fill('LegalMarket Nigeria Ltd');
  await edit.getByLabel('Bank').fill('GTBank');
  await edit.getByRole('button', { name: 'Save Changes' }).click();

  // The server answers 428; the web asks for a code and sends the change again.
  const prompt = page.getByRole('dialog', { name: 'Confirm it is you' });
  await expect(prompt).toBeVisible();
  while (stepOf() === enrolStep) await page.waitForTimeout(500);
  await prompt.getByRole('textbox', { name: 'Authentication code' }).fill(totp(secret));
  await prompt.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByTestId('settlement-account')).toContainText('0123456789');
  await expect(page.getByTestId('settlement-account')).toContainText('GTBank');
});

test('the audit page filters by actor, action and period, pages on the server and opens what an entry names', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const email = await createAccount(request, 'admin');
  const admin = await apiLogin(request, email);
  // Three actions of this admin: two lawyers verified, the settlement account saved.
  for (let i = 0; i < 2; i++) {
    const lawyer = await apiLogin(request, await createAccount(request, 'lawyer'));
    const res = await request.patch(`/api/verifylawyer/${lawyer.id}`, {
      headers: admin.headers,
      data: { verified: true },
    });
    expect(res.status()).toBe(200);
  }
  const saved = await request.put('/api/admin/settlement-account', {
    headers: admin.headers,
    data: { accountNumber: '0123456789', accountName: 'LegalMarket Ltd', bank: 'Zenith Bank' },
  });
  expect(saved.status(), await saved.text()).toBe(200);

  await loginAs(page, email);
  await page.goto('/admin/dashboard');
  await page.getByRole('navigation', { name: 'Admin menu' }).getByRole('link', { name: 'Audit log' }).click();
  await expect(page).toHaveURL(/\/admin\/audit$/);

  const filters = page.getByRole('form', { name: 'Audit filters' });
  await filters.getByLabel('Who (name, e-mail or id)').fill(email);
  await filters.getByRole('button', { name: 'Filter', exact: true }).click();
  await expect(page.getByTestId('audit-total')).toHaveText('3 entries');
  await expect(page).toHaveURL(/actor=/);

  await filters.getByLabel('Action', { exact: true }).selectOption('lawyer.verify');
  await expect(page.getByTestId('audit-total')).toHaveText('2 entries');
  await expect(page.getByRole('listitem').filter({ hasText: 'verified a lawyer' })).toHaveCount(2);

  // The period: nothing of this admin's before today.
  const today = new Date().toISOString().slice(0, 10);
  await filters.getByLabel('To', { exact: true }).fill('2020-01-01');
  await expect(page.getByText('No action matches these filters.')).toBeVisible();
  await filters.getByLabel('To', { exact: true }).fill(today);
  await filters.getByLabel('From', { exact: true }).fill(today);
  await expect(page.getByTestId('audit-total')).toHaveText('2 entries');

  // The filters live in the address: a reload shows the same list.
  await page.reload();
  await expect(page.getByTestId('audit-total')).toHaveText('2 entries');

  // Each entry opens what it names.
  await page.getByRole('link', { name: 'Open lawyer' }).first().click();
  await expect(page).toHaveURL(/\/admin\/lawyers$/);
  await page.goBack();
  await filters.getByLabel('Action', { exact: true }).selectOption('settlement.update');
  await expect(page.getByTestId('audit-total')).toHaveText('1 entry');
  await page.getByRole('link', { name: 'Open settings' }).click();
  await expect(page).toHaveURL(/\/admin\/payment$/);
});
