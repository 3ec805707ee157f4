import { expect, test } from '@playwright/test';
import { PASSWORD, createAccount, linkIn, loginAs, uniqueEmail, waitForMail } from './helpers';

// Issue 14, item 3 (docs/decisions/0210): a new sign-in address needs the current password and a link
// from the new inbox; the old address can undo the change.
test('a company changes its sign-in e-mail with its password and the new inbox, and the old address undoes it', async ({
  page,
}) => {
  const email = await createAccount(page.request, 'company');
  const session = await loginAs(page, email);
  const next = uniqueEmail('moved');

  await page.goto(`/company/profile/${session.data.user._id}`);
  await page.getByRole('button', { name: 'Update your details' }).click();
  await expect(page.getByLabel('Current password')).toHaveCount(0);
  await page.getByLabel('Email Address').fill(next);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Please enter your current password to change your email address')).toBeVisible();
  await page.getByLabel('Current password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('heading', { name: 'Profile Updated Successfully' })).toBeVisible();
  await expect(page.getByText('Check your new inbox to confirm your new email address')).toBeVisible();

  // Nothing changed yet: the old address still signs in.
  expect((await page.request.post('/api/login', { data: { officialEmail: next, password: PASSWORD } })).status()).toBe(
    401,
  );
  const confirm = await waitForMail(page.request, next, /Confirm your new LegalMarket sign-in address/);
  await page.goto(linkIn(confirm.text));
  // Opening the link changes nothing (decision 2224): the old address still signs in until the button.
  await expect(page.getByRole('button', { name: 'Confirm my new email' })).toBeVisible();
  expect((await page.request.post('/api/login', { data: { officialEmail: next, password: PASSWORD } })).status()).toBe(
    401,
  );
  await page.getByRole('button', { name: 'Confirm my new email' }).click();
  await expect(
    page.getByText('Your email address was changed. Log in with the new address from now on.'),
  ).toBeVisible();
  expect((await page.request.post('/api/login', { data: { officialEmail: next, password: PASSWORD } })).status()).toBe(
    200,
  );

  const notice = await waitForMail(page.request, email, /sign-in address was changed/);
  await page.goto(linkIn(notice.text));
  await page.getByRole('button', { name: 'Undo the change' }).click();
  await expect(page.getByText(/Your email address was restored and every device was logged out/)).toBeVisible();
  await expect(page.getByRole('link', { name: 'Reset your password' })).toBeVisible();
  expect((await page.request.post('/api/login', { data: { officialEmail: email, password: PASSWORD } })).status()).toBe(
    200,
  );
});
