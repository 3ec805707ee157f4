import { afterAll, beforeAll, expect, it } from 'vitest';
import { auditLog } from '../../db/schema.js';
import { createTestApp, describeEachDb, signupAndLogin, type TestApp } from '../../../test/helpers.js';

type Login = Awaited<ReturnType<typeof signupAndLogin>>;
const DAY = 86_400_000;

describeEachDb('the audit page: filters and paging on the server', (kind) => {
  let t: TestApp;
  let ada: Login;
  let bola: Login;
  let company: Login;
  let lawyer: Login;
  const jobId = crypto.randomUUID();

  beforeAll(async () => {
    t = await createTestApp(kind);
    ada = await signupAndLogin(t, 'admin', { email: `ada-${crypto.randomUUID()}@example.ng` });
    bola = await signupAndLogin(t, 'admin', { email: `bola-${crypto.randomUUID()}@example.ng` });
    company = await signupAndLogin(t, 'company');
    lawyer = await signupAndLogin(t, 'lawyer');
    const at = (day: string) => new Date(`${day}T12:00:00Z`);
    // 12 entries: Ada assigns 7 jobs over 7 days in March, Bola verifies 4 lawyers in April and assigns one job.
    const rows = [
      ...Array.from({ length: 7 }, (_, i) => ({
        actorId: ada.id,
        action: 'job.assign',
        targetType: 'job',
        targetId: i === 0 ? jobId : crypto.randomUUID(),
        createdAt: new Date(at('2026-03-01').getTime() + i * DAY),
      })),
      ...Array.from({ length: 4 }, (_, i) => ({
        actorId: bola.id,
        action: 'lawyer.verify',
        targetType: 'lawyer',
        targetId: i === 0 ? lawyer.id : crypto.randomUUID(),
        createdAt: new Date(at('2026-04-01').getTime() + i * DAY),
      })),
      { actorId: bola.id, action: 'job.assign', targetType: 'job', targetId: jobId, createdAt: at('2026-04-10') },
    ];
    await t.rt.database.db.insert(auditLog).values(rows);
  });
  afterAll(() => t.close());

  const list = async (query: string, who: Login | null = ada) => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/admin/audit-log?${query}`,
      headers: who?.headers ?? {},
    });
    return res;
  };
  const body = async (query: string) => {
    const res = await list(query);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as {
      total: number;
      page: number;
      limit: number;
      results: number;
      data: {
        entries: { action: string; targetType: string; targetId: string; actor: { _id: string }; createdAt: string }[];
      };
    };
  };

  it('pages on the server, newest first, and counts every match', async () => {
    const first = await body('page=1&limit=5&from=2026-03-01&to=2026-04-30');
    expect(first).toMatchObject({ total: 12, page: 1, limit: 5, results: 5 });
    const third = await body('page=3&limit=5&from=2026-03-01&to=2026-04-30');
    expect(third).toMatchObject({ total: 12, page: 3, results: 2 });
    const all = [...first.data.entries, ...third.data.entries].map((e) => e.createdAt);
    expect(first.data.entries[0].createdAt).toBe('2026-04-10T12:00:00.000Z');
    expect(all.slice(0, 5)).toEqual([...all.slice(0, 5)].sort().reverse());
    expect(third.data.entries.at(-1)!.createdAt).toBe('2026-03-01T12:00:00.000Z');
  });

  it('filters by actor (id, part of the e-mail or name), action, object and period, combined', async () => {
    expect((await body(`actor=${bola.id}&limit=100`)).total).toBe(5);
    expect((await body(`actor=${encodeURIComponent(bola.email.slice(0, 8))}&limit=100`)).total).toBe(5);
    expect((await body('action=job.assign&from=2026-03-01&to=2026-04-30')).total).toBe(8);
    expect((await body(`action=job.assign&actor=${bola.id}`)).total).toBe(1);
    const job = await body(`targetType=job&targetId=${jobId}`);
    expect(job.total).toBe(2);
    expect(job.data.entries.every((e) => e.targetId === jobId && e.targetType === 'job')).toBe(true);
    expect((await body(`targetType=lawyer&targetId=${lawyer.id}`)).data.entries[0].actor._id).toBe(bola.id);
    expect((await body('from=2026-03-03&to=2026-03-05')).total).toBe(3);
    expect((await body('from=2026-04-10&to=2026-04-10')).total).toBe(1);
    // A LIKE wildcard in the actor is taken literally.
    expect((await body('actor=%25')).total).toBe(0);
  });

  it('refuses bad filters with a 400 naming the field', async () => {
    for (const [query, field] of [
      ['from=2026-13-01', 'from'],
      ['from=2026-04-02&to=2026-04-01', 'from'],
      ['targetType=planet', 'targetType'],
      ['action=DROP%20TABLE', 'action'],
      ['limit=1000', 'limit'],
    ]) {
      const res = await list(query);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().message, query).toContain(field);
    }
  });

  it('answers admins only', async () => {
    expect((await list('', null)).statusCode).toBe(401);
    expect((await list('', company)).statusCode).toBe(403);
    expect((await list(`actor=${ada.id}`, lawyer)).statusCode).toBe(403);
  });
});
