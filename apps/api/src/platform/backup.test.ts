import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { rowsOf } from '../db/client.js';
import { jobs, orders, products } from '../db/schema.js';
import { backupDataDir, restoreDataDir, writeServerLock } from './backup.js';
import { openRuntime, appDeps } from '../runtime.js';
import { PASSWORD, companyBody, linkToken } from '../../test/helpers.js';

describe('backup and restore of the embedded database', () => {
  let base: string;
  beforeAll(async () => {
    base = await mkdtemp(path.join(tmpdir(), 'lm-backup-'));
  });
  afterAll(() => rm(base, { recursive: true, force: true }));

  const open = async (dataDir: string) => {
    const config = loadConfig({ DATA_DIR: dataDir, NODE_ENV: 'test', LOG_LEVEL: 'silent' });
    const rt = await openRuntime(config);
    const app = await buildApp({ ...appDeps(rt), logger: false, webDist: null });
    return { rt, app, close: async () => (await app.close(), await rt.close()) };
  };

  it('restores every account, order, job and file into a fresh data directory', async () => {
    const source = path.join(base, 'source');
    const s = await open(source);
    const email = 'backup@example.ng';
    await s.app.inject({ method: 'POST', url: '/api/company/signup', payload: companyBody(email) });
    const mail = (await s.app.inject({ method: 'GET', url: `/dev/mailbox?format=json&to=${email}` })).json().data
      .mails[0];
    await s.app.inject({ method: 'POST', url: '/api/confirm-email', payload: { token: linkToken(mail.text) } });
    const login = (
      await s.app.inject({ method: 'POST', url: '/api/login', payload: { officialEmail: email, password: PASSWORD } })
    ).json();
    const companyId = login.data.user._id as string;
    const db = s.rt.database.db;
    const [p] = await db
      .insert(products)
      .values({
        productName: 'NDA',
        productPrice: 2500000,
        productDescription: 'A mutual NDA',
        productImage: '/uploads/x.png',
      })
      .returning();
    const [o] = await db
      .insert(orders)
      .values({
        companyId,
        txRef: 'LM-backup-1',
        amount: 2500000,
        provider: 'sandbox',
        title: 'NDA',
        lines: [],
        status: 'paid',
      })
      .returning();
    await db
      .insert(jobs)
      .values({ orderId: o.id, lineNo: 0, companyId, productId: p.id, quantity: 1, amount: 2500000 });
    const fileBytes = Buffer.from('%PDF-1.4 confidential brief');
    await s.rt.storage.put('doc-abc123.pdf', fileBytes);
    await s.close();

    // A running server blocks the backup (one writer), a stale lock does not.
    await writeServerLock(source);
    await expect(backupDataDir(source, path.join(base, 'b0'))).rejects.toThrow(/stop it first/);
    await rm(path.join(source, 'server.pid'));

    const backup = path.join(base, 'backup');
    const manifest = await backupDataDir(source, backup);
    expect(manifest.files).toBe(1);

    const target = path.join(base, 'restored');
    await restoreDataDir(backup, target);
    await expect(restoreDataDir(backup, target)).rejects.toThrow(/already holds a database/);

    const r = await open(target);
    try {
      const counts = rowsOf<{ users: number; orders: number; jobs: number }>(
        await r.rt.database.db.execute(
          sql`select (select count(*)::int from users) as users, (select count(*)::int from orders) as orders, (select count(*)::int from jobs) as jobs`,
        ),
      )[0];
      expect(counts).toEqual({ users: 1, orders: 1, jobs: 1 });
      const again = await r.app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { officialEmail: email, password: PASSWORD },
      });
      expect(again.statusCode).toBe(200);
      // The same secret came along: the token issued before the backup still verifies.
      const profile = await r.app.inject({
        method: 'GET',
        url: `/api/userprofile?_id=${companyId}`,
        headers: { authorization: `Bearer ${login.token}` },
      });
      expect(profile.statusCode).toBe(200);
      const file = await r.rt.storage.get('doc-abc123.pdf');
      const chunks: Buffer[] = [];
      for await (const c of file!.stream) chunks.push(c as Buffer);
      expect(Buffer.concat(chunks).equals(fileBytes)).toBe(true);
    } finally {
      await r.close();
    }
  });
});
