import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { strFromU8, unzipSync } from 'fflate';
import { PASSWORD, createAccount, loginAs } from './helpers';

/** Issue 20 item 5 (NDPA 2023, decision 2030): a user downloads their archive and deletes their account. */
test('a company downloads its data as a zip and deletes its account; the address signs up again', async ({ page }) => {
  const email = await createAccount(page.request, 'company');
  const session = await loginAs(page, email);
  await page.goto(`/company/profile/${session.data.user._id}`);

  const section = page.getByRole('region', { name: 'Your data' });
  await expect(section).toContainText("Nigeria's Data Protection Act 2023");
  const download = page.waitForEvent('download');
  await section.getByRole('button', { name: 'Download my data' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^legalmarket-data-\d{4}-\d{2}-\d{2}\.zip$/);
  const zip = unzipSync(new Uint8Array(readFileSync((await file.path())!)));
  expect(Object.keys(zip)).toEqual(expect.arrayContaining(['README.txt', 'profile.json', 'orders.json', 'jobs.json']));
  expect(JSON.parse(strFromU8(zip['profile.json']))).toMatchObject({
    officialEmail: email,
    companyName: 'Ada Ventures Ltd',
  });

  // A wrong password keeps the account; the right one deletes it.
  await section.getByRole('button', { name: 'Delete my account' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
  await dialog.getByLabel('Your password').fill('Wr0ng!Password');
  await dialog.getByRole('button', { name: 'Delete permanently' }).click();
  await expect(dialog.getByText('Your password is not correct')).toBeVisible();
  await dialog.getByLabel('Your password').fill(PASSWORD);
  await dialog.getByRole('button', { name: 'Delete permanently' }).click();
  await expect(page).toHaveURL(/\/account-deleted$/);
  await expect(page.getByRole('status')).toContainText('Your account has been deleted');
  expect(await page.evaluate(() => localStorage.getItem('userToken'))).toBeNull();

  // The old token and the old password open nothing; the address is free to sign up again.
  const old = await page.request.get(`/api/userprofile?_id=${session.data.user._id}`, {
    headers: { authorization: `Bearer ${session.token}` },
  });
  expect(old.status()).toBe(401);
  const login = await page.request.post('/api/login', { data: { officialEmail: email, password: PASSWORD } });
  expect(login.status()).toBe(401);
  await createAccount(page.request, 'company', email);
});

test('the privacy policy names the rights of the NDPA 2023 and how to use them', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('contentinfo').getByRole('link', { name: 'Privacy policy' }).click();
  await expect(page).toHaveURL(/\/privacy$/);
  const policy = page.getByRole('article', { name: 'Privacy policy' });
  await expect(policy).toContainText('Data Protection Act 2023');
  await expect(policy).toContainText('Download my data');
  await expect(policy).toContainText('Delete my account');
  await expect(policy).toContainText('What we do with documents');
  await expect(policy).toContainText('Nigeria Data Protection Commission');
});

test('an admin reaches its data from the admin menu and is told why it cannot go when it is the only one', async ({
  page,
}) => {
  const email = await createAccount(page.request, 'admin');
  await loginAs(page, email);
  await page.goto('/admin/dashboard');
  await page.getByRole('navigation', { name: 'Admin menu' }).getByRole('link', { name: 'My data' }).click();
  await expect(page).toHaveURL(/\/account\/data$/);
  await page.getByRole('button', { name: 'Delete my account' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
  // Other journeys made admins too: this one may go, so it is asked for its password.
  await expect(dialog.getByLabel('Your password').or(dialog.getByText('You are the only admin'))).toBeVisible();
});
