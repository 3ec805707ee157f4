import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { inUiChunk } from '../../ui-chunk';

/*
 * Form code (react-hook-form, zod with the contracts' schemas, the QR library of the two-factor page) is
 * 45 KB gzip that pages showing no form have no use for. Read from the sources: what a page imports, and
 * what the `ui` chunk of vite.config.ts takes (a chunk imports whatever its modules import, so one form
 * component in `ui` makes every page loading it preload the form code).
 */
const web = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const src = path.join(web, 'src');
const repo = path.resolve(web, '../..');
const contracts = path.join(repo, 'packages/contracts/src');

/** What a module imports or re-exports for its values (not `import type`), as written. */
const importsOf = (file: string) =>
  [...readFileSync(file, 'utf8').matchAll(/^(?:import|export)\s+(?!type\s)([^;]*?)\sfrom\s+'([^']+)';/gms)]
    .filter((m) => !/^\{(\s*type\s+\w+\s*,?)+\s*\}$/.test(m[1].trim()))
    .map((m) => m[2]);

/** Our own module an import names (`@/`, relative, a contracts module), or null for a package. */
const resolve = (from: string, specifier: string) => {
  const base = specifier.startsWith('@/')
    ? path.join(src, specifier.slice(2))
    : specifier.startsWith('.')
      ? path.resolve(path.dirname(from), specifier.replace(/\.js$/, ''))
      : specifier.startsWith('@legalmarket/contracts')
        ? path.join(contracts, specifier.split('/')[2] ?? 'index')
        : null;
  return base === null ? null : (['.ts', '.tsx'].map((e) => base + e).find((f) => existsSync(f)) ?? null);
};

const FORM_PACKAGES = /^(zod|react-hook-form|@hookform\/.+|uqr)$/;
const TWO_FACTOR_PAGE = /features[\\/]accounts[\\/]two-factor-page\.tsx$/;

/** The form code `file` loads with itself (static imports, not import()), each as the chain that brings it. */
function formCodeOf(file: string) {
  const found: string[] = [];
  const seen = new Set<string>();
  const walk = (at: string, chain: string[]) => {
    if (seen.has(at)) return;
    seen.add(at);
    if (TWO_FACTOR_PAGE.test(at)) found.push(chain.join(' -> '));
    for (const s of importsOf(at)) {
      const next = resolve(at, s);
      if (next) walk(next, [...chain, path.relative(repo, next)]);
      else if (FORM_PACKAGES.test(s)) found.push([...chain, s].join(' -> '));
    }
  };
  walk(file, [path.relative(src, file)]);
  return found;
}

describe('pages that show no form', () => {
  it.each([
    ['/ and /home', 'features/public/landing-page.tsx'],
    ['every page (the root layout: the step-up form loads on the first 428)', 'app/layout/root-layout.tsx'],
    ['/products', 'features/catalogue/products-page.tsx'],
    ['/cart', 'features/cart/cart-page.tsx'],
    ['/terms', 'features/legal/terms-page.tsx'],
    ['/privacy', 'features/legal/privacy-page.tsx'],
  ])('%s loads no react-hook-form, zod, schema, QR code or two-factor page', (_page, file) => {
    expect(formCodeOf(path.join(src, file))).toEqual([]);
  });

  it('/pre-cart/{id} loads react-hook-form for its forms, and zod and the schema only on the first check', () => {
    const preCart = formCodeOf(path.join(src, 'features/catalogue/pre-cart-page.tsx'));
    expect(preCart).toContain('features/catalogue/pre-cart-page.tsx -> react-hook-form');
    expect(preCart.filter((chain) => !chain.endsWith(' -> react-hook-form'))).toEqual([]);
  });

  it('a form page is seen loading them (the check reads imports, re-exports and contracts)', () => {
    const login = formCodeOf(path.join(src, 'features/accounts/login-page.tsx'));
    expect(login).toEqual(expect.arrayContaining(['features/accounts/login-page.tsx -> react-hook-form']));
    expect(login.some((c) => c.endsWith('packages/contracts/src/auth.ts -> zod'))).toBe(true);
    expect(formCodeOf(path.join(src, 'components/step-up-dialog.tsx')).length).toBeGreaterThan(2);
  });
});

describe('the ui chunk', () => {
  const inUi = [
    ...readdirSync(path.join(src, 'components')).map((f) => path.join(src, 'components', f)),
    path.join(src, 'lib/use-hydrated.ts'),
  ].filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file) && inUiChunk(file));

  it('takes the shared components, but none that loads form code', () => {
    expect(inUi.map((f) => path.basename(f))).toEqual(
      expect.arrayContaining(['button.tsx', 'field.tsx', 'modal.tsx', 'feedback.tsx', 'use-hydrated.ts']),
    );
    expect(inUi.flatMap(formCodeOf)).toEqual([]);
  });
});
