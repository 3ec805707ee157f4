import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { loginAs } from '../e2e/helpers';
import { emailFor, pagesFor, ROLES, world } from '../e2e/pages';

// Run from the repository root (scripts/e2e.mjs), so this is the root's screenshots/ folder.
const OUT = path.resolve('screenshots');

async function shoot(page: Page, project: string, role: string, name: string, url: string) {
  await page.goto(url);
  await page.waitForLoadState('networkidle');
  // Pages that load lazily settle a moment after the network goes quiet.
  await page.waitForTimeout(300);
  const dir = path.join(OUT, project);
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${role}-${name}.png`), fullPage: true });
}

test('every page, every role', async ({ page, request }, info) => {
  const w = await world(request);
  const project = info.project.name;
  for (const role of ROLES) {
    const email = emailFor(w, role);
    if (email) {
      await page.evaluate(() => localStorage.clear());
      await loginAs(page, email);
    }
    for (const [name, url] of pagesFor(w, role)) await shoot(page, project, role, name, url);
  }

  const shots = readdirSync(path.join(OUT, project));
  expect(shots.length).toBeGreaterThanOrEqual(30);
  // One page to look through both sizes side by side.
  const projects = readdirSync(OUT).filter((d) => !d.includes('.'));
  const names = [...new Set(projects.flatMap((p) => readdirSync(path.join(OUT, p))))].sort();
  const rows = names
    .map(
      (n) =>
        `<section><h2>${n.replace('.png', '')}</h2>${projects
          .map((p) => `<figure><figcaption>${p}</figcaption><img loading="lazy" src="${p}/${n}" alt=""></figure>`)
          .join('')}</section>`,
    )
    .join('\n');
  writeFileSync(
    path.join(OUT, 'index.html'),
    `<!doctype html><meta charset="utf-8"><title>LegalMarket screenshots</title><style>body{font-family:system-ui;margin:16px}section{display:flex;gap:16px;align-items:flex-start;border-top:1px solid #ddd}h2{width:200px;font-size:14px}figure{margin:8px}img{max-width:640px;border:1px solid #ccc}</style>${rows}`,
  );
});
