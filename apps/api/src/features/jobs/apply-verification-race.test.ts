import { expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { messages } from '@legalmarket/contracts';
import { jobApplications, jobEvents } from '../../db/schema.js';
import { describeEachDb, otherConnection } from '../../../test/helpers.js';
import { handOverSuite } from './hand-over-test-kit.js';

// An Apply is an action on a job, and a lawyer whose verification is withdrawn takes none (decision 2310):
// it is judged by the lawyer's row under its lock, as the job page's actions are, not by the session read
// when the request began, which a withdrawal committing meanwhile has made stale.
describeEachDb('an Apply racing the withdrawal of the lawyer’s verification', (kind) => {
  const { ctx, db, inject, pay, companyAndLawyers } = handOverSuite(kind);

  it('refuses an Apply sent after the withdrawal, and keeps none', async () => {
    const [company, lawyer] = await companyAndLawyers(1);
    const job = await pay(company);
    expect((await inject('PATCH', `/api/verifylawyer/${lawyer.id}`, ctx.admin, { verified: false })).statusCode).toBe(
      200,
    );
    expect((await inject('POST', `/job-api/applyforjob/${job.id}`, lawyer)).statusCode).toBe(401);
    expect(await db().select().from(jobApplications).where(eq(jobApplications.jobId, job.id))).toEqual([]);
  });

  // On the server only (PGlite has one connection): the withdrawal holds the lawyer's row while the Apply,
  // its session already checked, waits for it.
  it.runIf(kind === 'postgres')(
    'refuses an Apply whose session was checked before the withdrawal committed',
    async () => {
      const [company, lawyer] = await companyAndLawyers(1);
      const job = await pay(company);
      const other = await otherConnection(ctx.t);
      const blocked = async () =>
        (
          await other.query(
            'select count(*)::int as n from pg_stat_activity b where pg_backend_pid() = any(pg_blocking_pids(b.pid))',
          )
        ).rows[0].n as number;
      try {
        // What PATCH /api/verifylawyer does under the lawyer's row lock: verification off, sessions ended.
        await other.query('begin');
        await other.query('update users set verified = false where id = $1', [lawyer.id]);
        const applying = inject('POST', `/job-api/applyforjob/${job.id}`, lawyer);
        for (let i = 0; i < 100 && !(await blocked()); i++) await new Promise((r) => setTimeout(r, 50));
        expect(await blocked(), 'the Apply waits for the lawyer row').toBe(1);
        await other.query('update sessions set revoked_at = now() where user_id = $1', [lawyer.id]);
        await other.query('commit');
        const applied = await applying;
        expect(applied.statusCode, applied.body).toBe(403);
        expect(applied.json().message).toBe(messages.unverifiedCannotApply);
      } finally {
        await other.end();
      }
      expect(await db().select().from(jobApplications).where(eq(jobApplications.jobId, job.id))).toEqual([]);
      const events = await db().select().from(jobEvents).where(eq(jobEvents.jobId, job.id));
      expect(events.map((e) => e.action)).not.toContain('apply');
    },
  );
});
