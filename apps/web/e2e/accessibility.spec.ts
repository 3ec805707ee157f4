import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { PASSWORD, createAccount, loginAs } from './helpers';
import { emailFor, pagesFor, ROLES, SCREENS, world } from './pages';

/**
 * axe-core on every page of every role, on a phone and a laptop: no serious or critical violation
 * (WCAG 2.2 AA rules and axe's best practices). The page list is the screenshots' (e2e/pages.ts).
 */
async function violations(page: Page, where: string) {
  // The page's data and lazy parts settle a moment after the network goes quiet.
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(200);
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) => `${where}: ${v.id} (${v.impact}) ${v.help}\n    ${v.nodes.map((n) => n.target.join(' ')).join('\n    ')}`,
    );
}

for (const [screen, use] of Object.entries(SCREENS)) {
  test.describe(`on a ${screen}`, () => {
    test.use(use);

    test('every page of every role has no serious or critical accessibility violation', async ({ page, request }) => {
      test.setTimeout(300_000);
      const w = await world(request);
      const found: string[] = [];
      for (const role of ROLES) {
        const email = emailFor(w, role);
        if (email) {
          await page.evaluate(() => localStorage.clear());
          await loginAs(page, email);
        }
        for (const [name, url] of pagesFor(w, role)) {
          await page.goto(url);
          found.push(...(await violations(page, `${role} ${name} ${url}`)));
        }
      }
      expect(found, found.join('\n')).toEqual([]);
    });

    test('open menus and dialogs have no serious or critical accessibility violation', async ({ page }) => {
      const found: string[] = [];
      await page.goto('/about-us');
      if (screen === 'phone') {
        await page.getByRole('button', { name: 'Open menu' }).click();
        found.push(...(await violations(page, 'mobile menu')));
        await page.locator('#mobile-menu').getByRole('button', { name: 'Sign Up' }).click();
      } else {
        await page.getByRole('button', { name: 'Sign Up' }).click();
      }
      found.push(...(await violations(page, 'sign-up menu')));
      await page.keyboard.press('Escape');
      // The footer links to the /terms page; the dialog opens from a sign-up form's consent box.
      await page.goto('/signup/asalawyer');
      await page.getByRole('button', { name: 'Terms of use' }).click();
      await expect(page.getByRole('dialog')).toBeVisible();
      found.push(...(await violations(page, 'terms dialog')));
      expect(found, found.join('\n')).toEqual([]);
    });
  });
}

/**
 * Presses Tab (or Shift+Tab) until `target` has the focus, checking that every control the focus
 * passes shows the focus ring. Fails if it is not reached in `max` presses.
 */
async function tabTo(page: Page, target: Locator, { back = false, max = 80 } = {}) {
  for (let i = 0; i < max; i += 1) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    const ring = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      if (!el || el === document.body) return 'none';
      const s = getComputedStyle(el);
      return s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2
        ? 'ok'
        : `${el.tagName} "${el.textContent?.trim().slice(0, 40)}" has no focus ring`;
    });
    expect(ring === 'ok' || ring === 'none', ring).toBe(true);
    if (await target.evaluate((el) => el === document.activeElement)) return;
  }
  throw new Error(`Tab did not reach ${target.toString()} in ${max} presses`);
}

test.describe('by keyboard alone', () => {
  test.use(SCREENS.laptop);

  test('browse, reserve, log in and find the reservation in the cart', async ({ page, request }) => {
    const email = await createAccount(request, 'company');
    const brief = 'Keyboard only: an NDA with our Abuja distributor';
    await page.goto('/products');
    await page.waitForLoadState('networkidle');
    await tabTo(page, page.getByRole('link', { name: /Non-Disclosure Agreement/ }).first(), { max: 120 });
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/pre-cart\/[0-9a-f-]{36}$/);

    const details = page.getByLabel('Give details');
    await expect(details).toBeEnabled();
    await tabTo(page, details);
    await page.keyboard.type(brief);
    await tabTo(page, page.getByRole('button', { name: 'Reserve' }));
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/cart$/);
    await expect(page.getByText(brief)).toBeVisible();

    await tabTo(page, page.getByRole('button', { name: 'Purchase' }));
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/signup\/asacompany$/);
    await tabTo(page, page.getByRole('main').getByRole('link', { name: 'Log in' }), { max: 120 });
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/login$/);

    await tabTo(page, page.getByLabel('Email address'));
    await page.keyboard.type(email);
    await tabTo(page, page.getByLabel('Password', { exact: true }));
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press('Enter');
    // The reservation moved into the company's cart, where the log-in lands.
    await expect(page).toHaveURL(/\/cart$/, { timeout: 10_000 });
    await expect(page.getByText(brief)).toBeVisible();
  });

  test('the Sign Up menu opens, moves and closes with the keyboard', async ({ page }) => {
    await page.goto('/about-us');
    const button = page.getByRole('button', { name: 'Sign Up' });
    await tabTo(page, button);
    await page.keyboard.press('Enter');
    await expect(page.getByRole('menuitem', { name: 'As a Company' })).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(page.getByRole('menuitem', { name: 'As a Lawyer' })).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(page.getByRole('menuitem', { name: 'As a Company' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('menu')).toBeHidden();
    await expect(button).toBeFocused();
    await expect(button).toHaveAttribute('aria-expanded', 'false');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowUp');
    await expect(page.getByRole('menuitem', { name: 'As a Lawyer' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/signup\/asalawyer$/);
  });

  test('a dialog keeps the focus inside, closes on Escape and gives the focus back', async ({ page }) => {
    // The footer links to /terms; the dialog opens from a sign-up form's consent box.
    await page.goto('/signup/asalawyer');
    const opener = page.getByRole('button', { name: 'Terms of use' });
    await tabTo(page, opener, { max: 120 });
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Terms of use' });
    await expect(dialog).toBeVisible();
    for (let i = 0; i < 6; i += 1) {
      await page.keyboard.press(i % 2 ? 'Shift+Tab' : 'Tab');
      expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
    }
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(opener).toBeFocused();
  });

  test('the phone menu closes on Escape and gives the focus back', async ({ page }) => {
    await page.setViewportSize(SCREENS.phone.viewport);
    await page.goto('/about-us');
    const toggle = page.getByRole('button', { name: 'Open menu' });
    await tabTo(page, toggle);
    await page.keyboard.press('Enter');
    await expect(page.locator('#mobile-menu')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.locator('#mobile-menu')).toBeHidden();
    await expect(page.getByRole('button', { name: 'Open menu' })).toBeFocused();
  });
});
