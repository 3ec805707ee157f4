/**
 * EXPLAIN ANALYZE of the list queries, built with the app's own query helpers in the same shapes as the
 * services (features/jobs/admin-service.ts list, lawyer-service.ts availableJobs, company-routes.ts,
 * cart/service.ts readPricedCart, platform/auth.ts resolve).
 */
import { and, asc, count, desc, eq, gt, inArray, isNull, ne, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../apps/api/src/db/client.js';
import { cartItems, jobApplications, jobCounts, jobs, products, sessions, users } from '../apps/api/src/db/schema.js';
import { selectJobs } from '../apps/api/src/features/jobs/view.js';

interface Q {
  getSQL(): SQL;
}

async function explain(db: Db, q: Q) {
  const res = (await db.execute(sql`explain (analyze, costs off) `.append(q.getSQL()))) as unknown as {
    rows: Record<string, string>[];
  };
  return res.rows.map((r) => Object.values(r)[0]).join('\n');
}

export async function listPlans(db: Db, who: { companyId: string; lawyerId: string; sessionId?: string }) {
  const isOpen = and(eq(jobs.status, 'unassigned'), isNull(jobs.assignedTo));
  const adminPage = selectJobs(db)
    .where(eq(jobs.status, 'unassigned'))
    .orderBy(desc(jobs.createdAt), desc(jobs.id))
    .limit(5)
    .offset(0);
  const firstIds = (await adminPage).map((r) => r.job.id);
  const plans: Record<string, string> = {
    'admin job list, page 1 (GET /job-api/unassign?page=1&limit=5)': await explain(db, adminPage),
    'admin job list: total': await explain(
      db,
      db.select({ n: count() }).from(jobs).where(eq(jobs.status, 'unassigned')),
    ),
    'admin job list: applicants of the page': await explain(
      db,
      db
        .select({ jobId: jobApplications.jobId, id: users.id, name: users.name })
        .from(jobApplications)
        .innerJoin(users, eq(users.id, jobApplications.lawyerId))
        .where(inArray(jobApplications.jobId, firstIds.length ? firstIds : [who.companyId]))
        .orderBy(jobApplications.createdAt),
    ),
    'lawyer available jobs, best fit, page 1 (GET /job-api/jobs)': await explain(
      db,
      selectJobs(db).where(isOpen).orderBy(asc(jobs.createdAt), asc(jobs.id)).limit(20).offset(0),
    ),
    'lawyer available jobs: total, as read now (job_counts)': await explain(
      db,
      db.select({ n: jobCounts.n }).from(jobCounts).where(eq(jobCounts.key, 'open')).limit(1),
    ),
    'lawyer available jobs: total, as it was counted before (replaced)': await explain(
      db,
      db.select({ n: count() }).from(jobs).where(isOpen),
    ),
    'company pending jobs (GET /job-api/company/pendingjobs)': await explain(
      db,
      selectJobs(db)
        .where(and(eq(jobs.companyId, who.companyId), ne(jobs.status, 'completed')))
        .orderBy(desc(jobs.createdAt), desc(jobs.id)),
    ),
    'company completed jobs (GET /job-api/company/completedjobs)': await explain(
      db,
      selectJobs(db)
        .where(and(eq(jobs.companyId, who.companyId), eq(jobs.status, 'completed')))
        .orderBy(desc(jobs.createdAt), desc(jobs.id)),
    ),
    // The shape of readPricedCart in features/cart/service.ts.
    'cart (GET /api/cart)': await explain(
      db,
      db
        .select({ productId: cartItems.productId, productName: products.productName, quantity: cartItems.quantity })
        .from(cartItems)
        .innerJoin(products, and(eq(products.id, cartItems.productId), isNull(products.deletedAt)))
        .where(eq(cartItems.companyId, who.companyId))
        .orderBy(asc(cartItems.createdAt), asc(cartItems.productId)),
    ),
  };
  if (who.sessionId)
    plans['session lookup (platform/auth.ts, once per cache miss)'] = await explain(
      db,
      db
        .select({ id: users.id })
        .from(sessions)
        .innerJoin(users, eq(users.id, sessions.userId))
        .where(and(eq(sessions.id, who.sessionId), isNull(sessions.revokedAt), gt(sessions.expiresAt, new Date())))
        .limit(1),
    );
  return plans;
}
