import { expect, test } from '@playwright/test';
import { PASSWORD, codeIn, createAccount, linkIn, uniqueEmail, waitForMail } from './helpers';

test('a company signs up in two steps, confirms through the mailbox, logs in, sees Welcome back and logs out', async ({
  page,
}) => {
  const email = uniqueEmail('journey');
  await page.goto('/signup/asacompany');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByText('Please enter your company name')).toBeVisible();

  await page.getByLabel('Company name').fill('Kola Foods Ltd');
  await page.getByLabel('Contact name').fill('Kola Ade');
  await page.getByLabel('Contact phone number').fill('0801-234-5678x9');
  await expect(page.getByLabel('Contact phone number')).toHaveValue('08012345678');
  await page.getByLabel('Official email').fill(email);
  await page.getByLabel('Office address').fill('3 Allen Avenue, Ikeja');
  await page.getByRole('button', { name: 'Next' }).click();

  // Step 2, then back: step-1 data is kept.
  await expect(page.getByLabel('Industry')).toBeVisible();
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(page.getByLabel('Company name')).toHaveValue('Kola Foods Ltd');
  await page.getByRole('button', { name: 'Next' }).click();

  await page.getByLabel('Industry').fill('Food processing');
  await page.getByLabel('Password', { exact: true }).fill('weak');
  await page.getByLabel('Confirm password').fill('weak');
  await page.getByRole('button', { name: 'Sign up' }).click();
  await expect(
    page.getByText(
      'Password must have at least 8 characters with one uppercase, one lowercase, one number, and one special character',
    ),
  ).toBeVisible();
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign up' }).click();
  await expect(page.getByText('Please accept the terms and conditions.')).toBeVisible();
  await page.getByLabel(/I am 18 or older/).check();
  await page.getByRole('button', { name: 'Sign up' }).click();
  await expect(page.getByRole('dialog')).toContainText('click the link in that email');
  await expect(page).toHaveURL(/\/login$/, { timeout: 8_000 });

  // Logging in before confirming is refused with the spec's message and a way to resend.
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('dialog')).toContainText('Please confirm your email address to log in.');
  await expect(page.getByRole('button', { name: 'Resend Confirmation Email' })).toBeVisible();

  const mail = await waitForMail(page.request, email, /Confirm/);
  await page.goto(linkIn(mail.text));
  await expect(page.getByRole('dialog')).toContainText('Email confirmed successfully');
  await expect(page.getByRole('dialog')).toContainText('You can now log in');
  await expect(page).toHaveURL(/\/login$/, { timeout: 8_000 });

  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByText('Welcome back')).toBeVisible();
  await expect(page).toHaveURL(/\/products$/, { timeout: 6_000 });
  expect(await page.evaluate(() => localStorage.getItem('userType'))).toBe('company');

  const token = await page.evaluate(() => localStorage.getItem('userToken'));
  await page.getByRole('button', { name: 'Log out' }).first().click();
  await expect(page).toHaveURL(/\/home$/);
  expect(await page.evaluate(() => localStorage.getItem('userToken'))).toBeNull();
  // The old token no longer works on the server.
  const userId = JSON.parse(Buffer.from(token!.split('.')[1], 'base64url').toString()).sub;
  const res = await page.request.get(`/api/userprofile?_id=${userId}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.status()).toBe(401);
});

test('a password reset end to end', async ({ page }) => {
  const email = await createAccount(page.request, 'company');
  // Direct visits to later steps redirect back.
  await page.goto(`/otp/${encodeURIComponent(email)}`);
  await expect(page).toHaveURL(/\/password-reset$/);

  await page.getByLabel('Email address').fill(email);
  await page.getByRole('button', { name: 'Send OTP' }).click();
  await expect(page).toHaveURL(new RegExp(`/otp/${encodeURIComponent(email)}$`));
  const enter = page.getByRole('button', { name: 'Enter' });
  await expect(enter).toBeDisabled();

  const mail = await waitForMail(page.request, email, /reset code/);
  const code = codeIn(mail.text);
  await page.getByLabel('Digit 1 of 6').fill('x');
  await expect(page.getByLabel('Digit 1 of 6')).toHaveValue('');
  for (let i = 0; i < 6; i++) await page.getByLabel(`Digit ${i + 1} of 6`).fill(code[i]);
  await expect(enter).toBeEnabled();
  await enter.click();
  await expect(page.getByRole('dialog')).toContainText('OTP Confirmed!');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/new-password\//);

  const newPassword = 'N3w!Passw0rd';
  await page.getByLabel('New password').fill(newPassword);
  await page.getByLabel('Confirm password').fill('Different1!');
  await page.getByRole('button', { name: 'Change Password' }).click();
  await expect(page.getByText('Passwords do not match')).toBeVisible();
  await page.getByLabel('Confirm password').fill(newPassword);
  await page.getByRole('button', { name: 'Change Password' }).click();
  await expect(page.getByRole('dialog')).toContainText('Password Reset Successfully');
  await expect(page).toHaveURL(/\/login$/, { timeout: 6_000 });

  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(newPassword);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByText('Welcome back')).toBeVisible();
});

test('login shows the spec messages for empty fields and a wrong password', async ({ page }) => {
  await page.goto('/login');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByText('Please enter your email address')).toBeVisible();
  await expect(page.getByText('Please enter your password')).toBeVisible();
  await page.getByLabel('Email address').fill(uniqueEmail('nobody'));
  await page.getByLabel('Password', { exact: true }).fill('Wrong!Pass1');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('dialog')).toContainText('There was a problem logging in');
  await expect(page.getByRole('dialog')).toContainText('Incorrect email or password');
});

test('the guest bar hides cart, login and sign-up on auth pages and the chat button links to WhatsApp', async ({
  page,
}) => {
  await page.goto('/about-us');
  await expect(page.getByRole('link', { name: 'Log in' })).toBeVisible();
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await expect(page.getByRole('menuitem', { name: 'As a Company' })).toBeVisible();
  await expect(page.getByRole('link', { name: /Chat with LegalMarket support/ })).toHaveAttribute(
    'href',
    /wa\.me\/2348012345678/,
  );
  await page.goto('/login');
  await expect(page.getByRole('link', { name: 'Log in' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Cart' })).toHaveCount(0);
});
