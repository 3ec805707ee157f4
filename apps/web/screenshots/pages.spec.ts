import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { apiLogin, createAccount, loginAs, paidJob } from '../e2e/helpers';

// Run from the repository root (scripts/e2e.mjs), so this is the root's screenshots/ folder.
const OUT = path.resolve('screenshots');

/** A paid job assigned to a verified lawyer, so every role's pages have something to show. */
async function world(request: APIRequestContext) {
  const adminEmail = await createAccount(request, 'admin');
  const admin = await apiLogin(request, adminEmail);
  const paid = await paidJob(request, 'Please draft a shareholders agreement for our three founders');
  const jobs = (await (
    await request.get('/job-api/company/pendingjobs', { headers: paid.company.headers })
  ).json()) as Array<{ _id: string }>;
  const jobId = jobs[0]._id;
  const lawyerEmail = await createAccount(request, 'lawyer');
  const lawyer = await apiLogin(request, lawyerEmail);
  await request.patch(`/api/verifylawyer/${lawyer.id}`, { headers: admin.headers, data: { verified: true } });
  await request.post('/job-api/assign', { headers: admin.headers, data: { jobId, lawyerId: lawyer.id } });
  const catalogue = (await (await request.get('/product-api/products')).json()) as { products: Array<{ _id: string }> };
  return {
    adminEmail,
    companyEmail: paid.companyEmail,
    company: paid.company,
    lawyerEmail,
    lawyer,
    jobId,
    productId: catalogue.products[0]._id,
  };
}

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
  const visitor: Array<[string, string]> = [
    ['landing', '/'],
    ['products', '/products'],
    ['product', `/pre-cart/${w.productId}`],
    ['about', '/about-us'],
    ['login', '/login'],
    ['signup-company', '/signup/asacompany'],
    ['signup-lawyer', '/signup/asalawyer'],
    ['password-reset', '/password-reset'],
    ['remuneration-order', '/legal-practitioners-remuneration-order'],
  ];
  for (const [name, url] of visitor) await shoot(page, project, 'visitor', name, url);

  const company = await loginAs(page, w.companyEmail);
  for (const [name, url] of [
    ['dashboard', '/company/dashboard'],
    ['cart', '/cart'],
    ['job', `/jobs/${w.jobId}`],
    ['notifications', '/notifications'],
    ['profile', `/company/profile/${company.data.user._id}`],
  ] as const)
    await shoot(page, project, 'company', name, url);

  await page.evaluate(() => localStorage.clear());
  await loginAs(page, w.lawyerEmail);
  for (const [name, url] of [
    ['dashboard', '/lawyer/dashboard'],
    ['available-jobs', `/lawyer/available-jobs/${w.lawyer.id}`],
    ['job', `/jobs/${w.jobId}`],
    ['get-paid', '/lawyer/get-paid'],
    ['profile', `/lawyer/profile/${w.lawyer.id}`],
    ['notifications', '/notifications'],
  ] as const)
    await shoot(page, project, 'lawyer', name, url);

  await page.evaluate(() => localStorage.clear());
  await loginAs(page, w.adminEmail);
  for (const [name, url] of [
    ['dashboard', '/admin/dashboard'],
    ['jobs', '/admin/jobs'],
    ['job', `/jobs/${w.jobId}`],
    ['lawyers', '/admin/lawyers'],
    ['companies', '/admin/companies'],
    ['ratings', '/admin/ratings'],
    ['new-product', '/admin/new-product'],
    ['payments', '/admin/payment'],
    ['ledger', '/admin/ledger'],
    ['payouts', '/admin/payouts'],
    ['refunds', '/admin/refunds'],
    ['reconciliation', '/admin/reconciliation'],
    ['holidays', '/admin/holidays'],
    ['remuneration-order', '/admin/remuneration-order'],
  ] as const)
    await shoot(page, project, 'admin', name, url);

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
