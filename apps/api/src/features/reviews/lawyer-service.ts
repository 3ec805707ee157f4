import { and, desc, eq, or, sql, type SQL } from 'drizzle-orm';
import {
  LAWYER_REVIEW_EDIT_MS,
  messages,
  type LawyerRecord,
  type LawyerRecordSort,
  type LawyerReview,
} from '@legalmarket/contracts';
import type { Db, Executor } from '../../db/client.js';
import { lockLiveAccount } from '../../db/locks.js';
import { jobApplications, jobs, lawyerReviews, products, users } from '../../db/schema.js';
import type { AuthUser } from '../../platform/auth.js';
import type { Clock } from '../../platform/clock.js';
import { conflict, forbidden, notFound } from '../../platform/errors.js';

interface Fields {
  stars: number;
  reviewTitle: string;
  review: string;
}

function selectLawyerReviews(ex: Executor) {
  return ex
    .select({ r: lawyerReviews, companyName: users.companyName, name: users.name, productName: products.productName })
    .from(lawyerReviews)
    .innerJoin(users, eq(users.id, lawyerReviews.companyId))
    .innerJoin(jobs, eq(jobs.id, lawyerReviews.jobId))
    .innerJoin(products, eq(products.id, jobs.productId))
    .$dynamic();
}
type Row = Awaited<ReturnType<ReturnType<typeof selectLawyerReviews>['execute']>>[number];

function toLawyerReview(row: Row): LawyerReview {
  const r = row.r;
  return {
    _id: r.id,
    jobId: r.jobId,
    lawyerId: r.lawyerId,
    stars: r.stars,
    reviewTitle: r.reviewTitle,
    review: r.review,
    companyId: { _id: r.companyId, companyName: row.companyName ?? row.name },
    productName: row.productName,
    reply: r.reply,
    repliedAt: r.repliedAt?.toISOString() ?? null,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
    editableUntil: new Date(r.createdAt.getTime() + LAWYER_REVIEW_EDIT_MS).toISOString(),
  };
}

/** Averages to one decimal, as the spec shows them. */
const oneDecimal = (n: number | string | null) => (n === null ? null : Math.round(Number(n) * 10) / 10);

export type LawyerReviewsService = ReturnType<typeof createLawyerReviewsService>;

/**
 * Reviews of lawyers (docs/decisions/2000): the company of a completed job reviews the lawyer it was
 * assigned to, once per job, and may edit for 14 days by the injected clock; the lawyer answers once.
 */
export function createLawyerReviewsService(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;

  async function one(ex: Executor, id: string) {
    const [row] = await selectLawyerReviews(ex).where(eq(lawyerReviews.id, id)).limit(1);
    return toLawyerReview(row);
  }

  /** Under the job's row lock, so two posts at once for one job see each other (the second gets 409). */
  async function create(company: AuthUser, input: Fields & { jobId: string }) {
    return db.transaction(async (tx) => {
      const [job] = await tx
        .select({ companyId: jobs.companyId, stage: jobs.stage, assignedTo: jobs.assignedTo })
        .from(jobs)
        .where(eq(jobs.id, input.jobId))
        .for('update');
      if (!job) throw notFound(messages.jobNotFound);
      await lockLiveAccount(tx, company.id);
      if (job.companyId !== company.id) throw forbidden(messages.lawyerReviewNotYourJob);
      if (job.stage !== 'completed' || !job.assignedTo) throw conflict(messages.lawyerReviewNeedsCompletedJob);
      const now = clock.now();
      const [row] = await tx
        .insert(lawyerReviews)
        .values({
          jobId: input.jobId,
          companyId: company.id,
          lawyerId: job.assignedTo,
          stars: input.stars,
          reviewTitle: input.reviewTitle,
          review: input.review,
          createdAt: now,
          updatedAt: now,
        })
        .onConflictDoNothing({ target: lawyerReviews.jobId })
        .returning({ id: lawyerReviews.id });
      if (!row) throw conflict(messages.lawyerReviewOnce);
      return one(tx, row.id);
    });
  }

  async function update(company: AuthUser, id: string, input: Fields) {
    return db.transaction(async (tx) => {
      const [current] = await tx.select().from(lawyerReviews).where(eq(lawyerReviews.id, id)).for('update');
      if (!current) throw notFound(messages.reviewNotFound);
      if (current.companyId !== company.id) throw forbidden(messages.reviewNotYours);
      const now = clock.now();
      if (now.getTime() > current.createdAt.getTime() + LAWYER_REVIEW_EDIT_MS)
        throw conflict(messages.lawyerReviewEditClosed);
      await tx
        .update(lawyerReviews)
        .set({ stars: input.stars, reviewTitle: input.reviewTitle, review: input.review, updatedAt: now })
        .where(eq(lawyerReviews.id, id));
      return one(tx, id);
    });
  }

  /** The reviewed lawyer answers once; the row lock makes a second answer, even at the same time, a 409. */
  async function reply(lawyer: AuthUser, id: string, text: string) {
    return db.transaction(async (tx) => {
      // The account's row before the review's, as the erasure takes them: an erased lawyer writes nothing (2276).
      await lockLiveAccount(tx, lawyer.id);
      const [current] = await tx.select().from(lawyerReviews).where(eq(lawyerReviews.id, id)).for('update');
      if (!current) throw notFound(messages.reviewNotFound);
      if (current.lawyerId !== lawyer.id) throw forbidden(messages.lawyerReplyNotYours);
      if (current.reply !== null) throw conflict(messages.lawyerReplyOnce);
      const now = clock.now();
      await tx
        .update(lawyerReviews)
        .set({ reply: text, repliedAt: now, updatedAt: now })
        .where(eq(lawyerReviews.id, id));
      return one(tx, id);
    });
  }

  /** A lawyer's average and count over every review, and the newest reviews (or the one of `jobId`). */
  async function ofLawyer(viewer: AuthUser, lawyerId: string, filter: { jobId?: string; limit: number }) {
    const [lawyer] = await db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.id, lawyerId), eq(users.userType, 'lawyer')));
    if (!lawyer) throw notFound(messages.lawyerNotFound);
    const [summary] = await db
      .select({ average: sql<string | null>`avg(${lawyerReviews.stars})`, count: sql<number>`count(*)::int` })
      .from(lawyerReviews)
      .where(eq(lawyerReviews.lawyerId, lawyerId));
    // Which job a review is of stays with the job's parties: a filter by job finds nothing for anyone
    // else, or it would tie the job to its lawyer, company and stars (decision 2238).
    const ofParty =
      viewer.userType === 'admin'
        ? undefined
        : or(eq(lawyerReviews.companyId, viewer.id), eq(lawyerReviews.lawyerId, viewer.id));
    const where: SQL = filter.jobId
      ? and(eq(lawyerReviews.lawyerId, lawyerId), eq(lawyerReviews.jobId, filter.jobId), ofParty)!
      : eq(lawyerReviews.lawyerId, lawyerId);
    const rows = await selectLawyerReviews(db)
      .where(where)
      .orderBy(desc(lawyerReviews.createdAt), desc(lawyerReviews.id))
      .limit(filter.limit);
    // Every signed-in user reads a lawyer's reviews; which job each is of stays with the job's parties.
    const party = (r: LawyerReview) =>
      viewer.userType === 'admin' || viewer.id === r.companyId._id || viewer.id === r.lawyerId;
    const reviews = rows.map(toLawyerReview).map((r) => (party(r) ? r : { ...r, jobId: null }));
    return { average: oneDecimal(summary.average), count: summary.count, reviews };
  }

  /**
   * The admin assign page's track records: average stars, review count, completed jobs and the jobs
   * completed by their due date, for verified lawyers or a job's applicants, sorted on the server.
   */
  async function records(q: { jobId?: string; sort: LawyerRecordSort; page: number; limit: number }) {
    // Qualified by hand: drizzle writes a column of a one-table select without its table, which inside
    // these subqueries would name the subquery's own column.
    const uid = sql.raw('"users"."id"');
    const average = sql<string | null>`(select avg(lr.stars) from ${lawyerReviews} lr where lr.lawyer_id = ${uid})`;
    const reviewCount = sql<number>`(select count(*)::int from ${lawyerReviews} lr where lr.lawyer_id = ${uid})`;
    const completed = sql<number>`(select count(*)::int from ${jobs} j where j.assigned_to = ${uid} and j.stage = 'completed')`;
    const onTime = sql<number>`(select count(*)::int from ${jobs} j where j.assigned_to = ${uid} and j.stage = 'completed' and j.completed_at <= j.due_at)`;
    const onTimeRate = sql`(${onTime})::float8 / nullif(${completed}, 0)`;
    const order: Record<LawyerRecordSort, SQL[]> = {
      newest: [],
      rating: [sql`${average} desc nulls last`, sql`${reviewCount} desc`],
      reviews: [sql`${reviewCount} desc`],
      completed: [sql`${completed} desc`],
      onTime: [sql`${onTimeRate} desc nulls last`, sql`${completed} desc`],
    };
    const where: SQL = q.jobId
      ? and(
          eq(users.userType, 'lawyer'),
          sql`exists (select 1 from ${jobApplications} a where a.job_id = ${q.jobId} and a.lawyer_id = ${uid})`,
        )!
      : and(eq(users.userType, 'lawyer'), eq(users.verified, true))!;
    const [{ total }] = await db
      .select({ total: sql<number>`count(*)::int` })
      .from(users)
      .where(where);
    const rows = await db
      .select({
        id: users.id,
        name: users.name,
        scn: users.scn,
        verified: users.verified,
        profileImage: users.profileImage,
        createdAt: users.createdAt,
        average,
        reviewCount,
        completed,
        onTime,
      })
      .from(users)
      .where(where)
      .orderBy(...order[q.sort], desc(users.createdAt), desc(users.id))
      .limit(q.limit)
      .offset((q.page - 1) * q.limit);
    const items: LawyerRecord[] = rows.map((r) => ({
      _id: r.id,
      name: r.name,
      scn: r.scn,
      verified: r.verified,
      profileImage: r.profileImage ? { url: r.profileImage } : null,
      createdAt: r.createdAt.toISOString(),
      average: oneDecimal(r.average),
      reviews: Number(r.reviewCount),
      completedJobs: Number(r.completed),
      onTimeJobs: Number(r.onTime),
      onTimeRate: Number(r.completed) > 0 ? Number(r.onTime) / Number(r.completed) : null,
    }));
    return { items, total };
  }

  return { create, update, reply, ofLawyer, records };
}
