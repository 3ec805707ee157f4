import { afterAll, beforeAll, expect, it } from 'vitest';
import { ConfigError } from '../config.js';
import { createLedger } from '../features/money/ledger.js';
import { DEMO_PASSWORD, DEMO_USERS, demoConfig, seedDemo } from './demo.js';
import { createTestApp, describeEachDb, type TestApp } from '../../test/helpers.js';

it('npm run demo refuses NODE_ENV=production and never uses a real database or SMTP', () => {
  expect(() => demoConfig({ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(40) })).toThrow(ConfigError);
  const c = demoConfig({
    DATABASE_URL: 'postgres://prod/db',
    SMTP_URL: 'smtp://mail.example.ng',
    DATA_DIR: '/var/lib/legalmarket',
  });
  expect(c.DATABASE_URL).toBeUndefined();
  expect(c.SMTP_URL).toBeUndefined();
  expect(c.DATA_DIR).toBe('./data-demo');
  expect(c.NODE_ENV).toBe('development');
  expect(demoConfig({ DEMO_DATA_DIR: '/tmp/x' }).DATA_DIR).toBe('/tmp/x');
});

describeEachDb('demo data', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  it('creates every role and jobs in every state once, and every demo login works', async () => {
    const deps = {
      db: t.rt.database.db,
      storage: t.rt.storage,
      clock: t.clock,
      config: { ...t.config, SEED_CATALOGUE: true },
      secret: t.rt.secret,
    };
    expect(await seedDemo(deps)).toBe(true);
    expect(await seedDemo(deps)).toBe(false);

    const tokens: Record<string, string> = {};
    for (const [role, email] of Object.entries(DEMO_USERS)) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { officialEmail: email, password: DEMO_PASSWORD },
      });
      expect(res.statusCode, role).toBe(200);
      tokens[role] = res.json().token;
    }
    const admin = { authorization: `Bearer ${tokens.admin}` };
    const get = (url: string) => t.app.inject({ method: 'GET', url, headers: admin }).then((r) => r.json());
    const open = await get('/job-api/unassign?page=1');
    const pending = await get('/job-api/pendingjobs?page=1');
    const completed = await get('/job-api/completedjobs?page=1');
    expect(open.total).toBe(2);
    expect(pending.total).toBe(1);
    expect(completed.total).toBe(1);
    expect(open.jobs.some((j: { appliedLawer: unknown[] }) => j.appliedLawer.length === 2)).toBe(true);
    expect(pending.jobs[0]).toMatchObject({ adminFileName: 'nda-checklist.pdf' });
    expect(pending.jobs[0].adminFile).toMatch(/^\/uploads\//);
    // The demo's money is in the ledger: the order held per job, the completed job's share owed to the lawyer.
    expect(await createLedger(deps).audit()).toEqual([]);
    const lawyer = { authorization: `Bearer ${tokens.lawyer}` };
    const earnings = (await t.app.inject({ method: 'GET', url: '/job-api/lawyer/earnings', headers: lawyer })).json();
    expect(earnings.data.count).toBe(1);
    // The demo lawyer's payout account is one the sandbox bank resolves, so the demo can withdraw.
    const payouts = (await t.app.inject({ method: 'GET', url: '/api/lawyer/payouts', headers: lawyer })).json();
    expect(payouts.detailsResolved).toBe(true);
    expect(earnings.data.pending + earnings.data.available).toBeCloseTo(earnings.data.total * 0.8, 2);
    expect((await get('/api/unverifiedlawyers')).total).toBe(1);
    expect((await get('/api/verifiedlawyers')).total).toBe(1);
    const dash = await get('/api/admin/dashboard');
    expect(dash.data.counts).toMatchObject({ reviews: 2, companies: 1, payments: 1 });
    expect(dash.data.recentActivity.length).toBeGreaterThan(0);
    expect((await get('/api/admin/settlement-account')).data.account).toMatchObject({ bank: 'Access Bank' });
    // the admin document really downloads
    const key = pending.jobs[0].adminFile.split('/').pop();
    const file = await t.app.inject({ method: 'GET', url: `/uploads/${key}`, headers: admin });
    expect(file.statusCode).toBe(200);
    expect(file.body.startsWith('%PDF-')).toBe(true);
  });
});
