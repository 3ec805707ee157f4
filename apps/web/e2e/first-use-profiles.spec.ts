import { expect, test, type APIRequestContext } from '@playwright/test';
import { apiLogin, createAccount, loginAs, PASSWORD, uniqueEmail, waitForMail } from './helpers';

/**
 * Issue 18, traps 2, 6, 7 and 9: the first-use traps of profiles, guards, confirmation and form messages.
 * Accounts are set up through the API; every trap is then walked in the browser.
 */

const createAdmin = async (request: APIRequestContext) => {
  const email = await createAccount(request, 'admin');
  return { email, ...(await apiLogin(request, email)) };
};

test('trap 2: an international phone number is saved as the 11-digit local number', async ({ page }) => {
  const email = await createAccount(page.request, 'company');
  const { data } = await loginAs(page, email);
  await page.goto(`/company/profile/${data.user._id}`);
  await page.getByRole('button', { name: 'Update your details' }).click();
  const phone = page.getByLabel('Phone Number');
  await phone.fill('+234 803 123 4567');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('dialog')).toContainText('Profile Updated Successfully');
  await page.getByRole('dialog').getByRole('button', { name: 'Close' }).first().click();
  await expect(page.getByText('08031234567')).toBeVisible();
  await expect(page.getByText('23480312345')).toHaveCount(0);

  // A number that is neither form is refused with the spec's message, never cut to 11 digits.
  await page.getByRole('button', { name: 'Update your details' }).click();
  await page.getByLabel('Phone Number').fill('+44 20 7946 0958 12');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Please enter a valid 11-digit phone number')).toBeVisible();
});

test('trap 6: clearing the website, the bio and every area of practice saves the empty values', async ({ page }) => {
  const companyEmail = await createAccount(page.request, 'company');
  const company = await apiLogin(page.request, companyEmail);
  const filled = await page.request.patch(`/api/updateprofile?_id=${company.id}`, {
    headers: company.headers,
    multipart: { website: 'https://ada.ng', yourBio: 'We build payment tools.' },
  });
  expect(filled.status()).toBe(200);
  await loginAs(page, companyEmail);
  await page.goto(`/company/profile/${company.id}`);
  await expect(page.getByText('https://ada.ng')).toBeVisible();
  await page.getByRole('button', { name: 'Update your details' }).click();
  await page.getByLabel('Website').fill('');
  await page.getByLabel('Your Bio').fill('');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('dialog')).toContainText('Profile Updated Successfully');
  await page.getByRole('dialog').getByRole('button', { name: 'Close' }).first().click();
  await expect(page.getByText('https://ada.ng')).toHaveCount(0);
  await expect(page.getByText('We build payment tools.')).toHaveCount(0);
  await page.reload();
  await expect(page.getByText('Not added yet')).toHaveCount(3); // website, alternate email, bio

  const lawyerEmail = await createAccount(page.request, 'lawyer');
  const lawyer = await apiLogin(page.request, lawyerEmail);
  await page.request.patch(`/api/updateprofile?_id=${lawyer.id}`, {
    headers: lawyer.headers,
    multipart: { yourBio: 'Tech lawyer in Lagos.' },
  });
  await loginAs(page, lawyerEmail);
  await page.goto(`/lawyer/profile/${lawyer.id}`);
  await expect(page.getByText('Tech lawyer in Lagos.')).toBeVisible();
  await page.getByRole('button', { name: 'Update your details' }).click();
  await page.getByRole('button', { name: 'Technology', pressed: true }).click();
  await page.getByLabel('Your Bio').fill('');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('dialog')).toContainText('Profile Updated Successfully');
  await page.getByRole('dialog').getByRole('button', { name: 'Close' }).first().click();
  await page.reload();
  await expect(page.getByRole('button', { name: 'Add Expertise' })).toBeVisible();
  await expect(page.getByText('Tech lawyer in Lagos.')).toHaveCount(0);
});

test('trap 7: a verified lawyer who changes the SCN is verified again, and the admins are told', async ({ page }) => {
  const admin = await createAdmin(page.request);
  const lawyerEmail = await createAccount(page.request, 'lawyer');
  const lawyer = await apiLogin(page.request, lawyerEmail);
  const verified = await page.request.patch(`/api/verifylawyer/${lawyer.id}`, {
    headers: admin.headers,
    data: { verified: true },
  });
  expect(verified.status()).toBe(200);

  await loginAs(page, lawyerEmail);
  await page.goto(`/lawyer/profile/${lawyer.id}`);
  await expect(page.getByText('Legal Practitioner · Verified')).toBeVisible();
  await page.getByRole('button', { name: 'Update your details' }).click();
  await page.getByLabel('SCN').fill('SCN009999');
  await expect(page.getByText(/needs verification again/)).toBeVisible();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('dialog')).toContainText('Profile Updated Successfully');
  await page.getByRole('dialog').getByRole('button', { name: 'Close' }).first().click();
  await expect(page.getByText('Legal Practitioner · Not verified yet')).toBeVisible();
  await expect(page.getByText('SCN009999')).toBeVisible();
  const mail = await waitForMail(page.request, admin.email, /SCN/);
  expect(mail.text).toContain('SCN009999');
});

test('trap 10: a refused verification stays for the lawyer and the admin until the lawyer changes the profile', async ({
  page,
}) => {
  // Decision 1860: the refusal is kept, not only e-mailed. Journeys run one at a time, so the new lawyer
  // heads the Unverified list.
  const admin = await createAdmin(page.request);
  const lawyerEmail = await createAccount(page.request, 'lawyer');
  const reason = 'Your SCN does not match the NBA roll; please send your call certificate.';

  await loginAs(page, admin.email);
  await page.goto('/admin/lawyers');
  await page.getByRole('tab', { name: 'Unverified' }).click();
  const row = page.getByRole('listitem').filter({ hasText: lawyerEmail });
  await row.getByRole('button', { name: /View more/ }).click();
  await page.getByRole('button', { name: 'Reject', exact: true }).click();
  const ask = page.getByRole('dialog', { name: /reject/i });
  await ask.getByLabel(/reason/i).fill(reason);
  await ask.getByRole('button', { name: 'Reject and e-mail the reason' }).click();
  await expect(ask.getByRole('status')).toContainText(/rejected/i);
  await ask.getByRole('button', { name: 'Close' }).last().click();

  // After a reload the admin still sees the refusal, in the list and in View more.
  await page.reload();
  await page.getByRole('tab', { name: 'Unverified' }).click();
  await expect(row).toContainText('Declined');
  await row.getByRole('button', { name: /View more/ }).click();
  await expect(page.getByRole('dialog')).toContainText(reason);
  await expect(page.getByRole('dialog')).toContainText(/Declined on/);

  // The lawyer reads the reason on the dashboard, after a reload too, and on the profile.
  const lawyer = await loginAs(page, lawyerEmail);
  await page.goto('/lawyer/dashboard');
  const declined = page.getByRole('status').filter({ hasText: 'Your verification was declined' });
  await expect(declined).toContainText(reason);
  await expect(declined).toContainText('Update your profile and we will check again.');
  await page.reload();
  await expect(declined).toContainText(reason);
  await declined.getByRole('link', { name: 'Update your details' }).click();
  await expect(page).toHaveURL(new RegExp(`/lawyer/profile/${lawyer.data.user._id}$`));
  await expect(page.getByText('Legal Practitioner · Verification declined')).toBeVisible();

  // Changing the profile asks to be checked again: pending, and the admin sees no refusal any more.
  await page.getByRole('button', { name: 'Update your details' }).click();
  await page.getByLabel('Year of Call').fill('2015');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('dialog')).toContainText('Profile Updated Successfully');
  await page.getByRole('dialog').getByRole('button', { name: 'Close' }).first().click();
  await expect(page.getByText('Legal Practitioner · Not verified yet')).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Your verification is pending' })).toBeVisible();
  await expect(page.getByText('Your verification was declined')).toHaveCount(0);
  const listed = (await (
    await page.request.get('/api/unverifiedlawyers?limit=100', { headers: admin.headers })
  ).json()) as { lawyers: Array<{ _id: string; verificationRejection: unknown }> };
  expect(listed.lawyers.find((l) => l._id === lawyer.data.user._id)?.verificationRejection).toBeNull();
});

test("trap 9: another role's page says whose it is, and an unverified lawyer sees verification pending", async ({
  page,
}) => {
  // A company opening an admin page, and a lawyer opening a company page.
  const companyEmail = await createAccount(page.request, 'company');
  await loginAs(page, companyEmail);
  await page.goto('/admin/dashboard');
  await expect(page.getByRole('heading', { name: 'This page is for admins' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Go to your dashboard' })).toHaveAttribute('href', '/company/dashboard');
  await expect(page).toHaveURL(/\/admin\/dashboard$/);

  const lawyerEmail = await createAccount(page.request, 'lawyer');
  const lawyer = await loginAs(page, lawyerEmail);
  await page.goto('/company/dashboard');
  await expect(page.getByRole('heading', { name: 'This page is for companies' })).toBeVisible();
  await page.getByRole('link', { name: 'Go to your dashboard' }).click();
  await expect(page).toHaveURL(/\/lawyer\/dashboard$/);

  // The unverified lawyer is told verification is pending and what comes next.
  const banner = page.getByRole('status').filter({ hasText: 'Your verification is pending' });
  await expect(banner).toBeVisible();
  await expect(banner).toContainText('e-mail');
  await page.goto(`/lawyer/available-jobs/${lawyer.data.user._id}`);
  await expect(page.getByText('Your verification is pending')).toBeVisible();
});

test('trap 9: messages name fields in words and go once the field is fixed', async ({ page }) => {
  const lawyerEmail = await createAccount(page.request, 'lawyer');
  const lawyer = await loginAs(page, lawyerEmail);
  // The year of call is checked in the form, in words, and the message goes once it is fixed.
  await page.goto(`/lawyer/profile/${lawyer.data.user._id}`);
  await page.getByRole('button', { name: 'Update your details' }).click();
  await page.getByLabel('Year of Call').fill('20I5');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Year of call must be a year such as 2015')).toBeVisible();
  await expect(page.getByText(/yearOfCall/)).toHaveCount(0);
  await page.getByLabel('Year of Call').fill('2015');
  await expect(page.getByText('Year of call must be a year such as 2015')).toHaveCount(0);

  // The API's own messages name fields in words too.
  const { headers } = await apiLogin(page.request, lawyerEmail);
  const refused = await page.request.patch(`/api/updateprofile?_id=${lawyer.data.user._id}`, {
    headers,
    multipart: { yearOfCall: 'soon' },
  });
  expect(refused.status()).toBe(400);
  expect(((await refused.json()) as { message: string }).message).toBe('Year of call must be a year such as 2015');

  // A sign-up message goes once its field is fixed.
  await page.evaluate(() => localStorage.clear());
  await page.goto('/signup/asalawyer');
  await page.getByRole('button', { name: 'Sign up', exact: true }).click();
  await expect(page.getByText('Please enter your name')).toBeVisible();
  await page.getByLabel('Full name').fill('Bola Ade');
  await expect(page.getByText('Please enter your name')).toHaveCount(0);
});

test('trap 9: a confirmation link opened twice says the address is already confirmed', async ({ page }) => {
  const email = uniqueEmail('twice');
  const signup = await page.request.post('/api/company/signup', {
    data: {
      companyName: 'Twice Ltd',
      contactName: 'Ngozi Eze',
      phoneNumber: '08012345678',
      officialEmail: email,
      officeAddress: '3 Broad Street, Lagos',
      industry: 'Retail',
      password: PASSWORD,
      passwordConfirm: PASSWORD,
    },
  });
  expect(signup.status()).toBe(201);
  const link = /(https?:\/\/\S+)/.exec((await waitForMail(page.request, email, /Confirm/)).text)![1];
  const path = new URL(link).pathname + new URL(link).search;
  await page.goto(path);
  await expect(page.getByRole('dialog')).toContainText('Email confirmed successfully');
  await page.goto(path);
  await expect(page.getByText('Your email address is already confirmed. You can log in.')).toBeVisible();
  await expect(page.getByText('This link is invalid or has expired')).toHaveCount(0);
});

test('trap 9: the password hint lists the symbols the password rule accepts', async ({ page }) => {
  // The company sign-up uses the same fields (NewPasswordFields) on its step 2.
  for (const path of ['/signup/asalawyer', '/signup/asanadmin']) {
    await page.goto(path);
    const password = page.getByLabel('Password', { exact: true });
    await expect(password).toHaveAccessibleDescription(
      'At least 8 characters with an uppercase letter, a lowercase letter, a number and one of these symbols: @ $ ! % * ? &',
    );
  }
});
