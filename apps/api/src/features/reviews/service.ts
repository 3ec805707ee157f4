import { desc, eq, sql, type SQL } from 'drizzle-orm';
import { messages, type Review, type ReviewInput } from '@legalmarket/contracts';
import type { Db, Executor } from '../../db/client.js';
import { lockLiveAccount } from '../../db/locks.js';
import { jobs, products, reviews, users } from '../../db/schema.js';
import type { AuthUser } from '../../platform/auth.js';
import { recordAudit } from '../../platform/audit.js';
import type { Clock } from '../../platform/clock.js';
import { forbidden, notFound } from '../../platform/errors.js';
import { findLiveProduct } from '../catalogue/service.js';

interface ReviewFields {
  reviewTitle: string;
  review: string;
  status: number;
}

function selectReviews(ex: Executor) {
  return ex
    .select({
      r: reviews,
      companyName: users.companyName,
      name: users.name,
      productName: products.productName,
      // Bought: the company has a job for the product that was not cancelled (refunded).
      verifiedPurchase: sql<boolean>`exists (select 1 from ${jobs} where ${jobs.companyId} = ${reviews.companyId} and ${jobs.productId} = ${reviews.productId} and ${jobs.stage} <> 'cancelled')`,
    })
    .from(reviews)
    .innerJoin(users, eq(users.id, reviews.companyId))
    .leftJoin(products, eq(products.id, reviews.productId))
    .$dynamic();
}
type Row = Awaited<ReturnType<ReturnType<typeof selectReviews>['execute']>>[number];

/** The spec's review shape: `companyId { _id, companyName }`, stars in `status`. */
function toReview(row: Row): Review {
  const r = row.r;
  return {
    _id: r.id,
    date: r.date.toISOString(),
    reviewTitle: r.reviewTitle,
    review: r.review,
    status: r.status,
    companyId: { _id: r.companyId, companyName: row.companyName ?? row.name },
    productId: r.productId,
    productName: row.productName ?? null,
    verifiedPurchase: Boolean(row.verifiedPurchase),
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

export type ReviewsService = ReturnType<typeof createReviewsService>;

export function createReviewsService(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;

  async function one(ex: Executor, id: string) {
    const [row] = await selectReviews(ex).where(eq(reviews.id, id)).limit(1);
    return row ? toReview(row) : null;
  }

  async function list(filter: { productId?: string; limit?: number }) {
    const where: SQL | undefined = filter.productId ? eq(reviews.productId, filter.productId) : undefined;
    const query = selectReviews(db).where(where).orderBy(desc(reviews.date), desc(reviews.id));
    const rows = await (filter.limit ? query.limit(filter.limit) : query);
    return rows.map(toReview);
  }

  /**
   * One review per company and product (decision 2001): the first POST creates it, a later one edits it
   * in place. One statement against the unique index, so two posts at once still leave one review.
   */
  async function create(company: AuthUser, input: Required<Pick<ReviewInput, 'productId'>> & ReviewFields) {
    return db.transaction(async (tx) => {
      await lockLiveAccount(tx, company.id);
      const product = await findLiveProduct(tx, input.productId);
      if (!product) throw notFound(messages.productNotFound);
      const now = clock.now();
      const [row] = await tx
        .insert(reviews)
        .values({
          companyId: company.id,
          productId: input.productId,
          reviewTitle: input.reviewTitle,
          review: input.review,
          status: input.status,
          date: now,
          createdAt: now,
          updatedAt: now,
        })
        .onConflictDoUpdate({
          target: [reviews.companyId, reviews.productId],
          set: { reviewTitle: input.reviewTitle, review: input.review, status: input.status, updatedAt: now },
        })
        // xmax is 0 on a row this statement inserted, set on one it updated.
        .returning({ id: reviews.id, created: sql<boolean>`(xmax = 0)` });
      return { review: (await one(tx, row.id))!, created: Boolean(row.created) };
    });
  }

  /** Only the company that wrote the review changes it (403 for anyone else, admins included). */
  async function update(company: AuthUser, id: string, input: ReviewFields) {
    return db.transaction(async (tx) => {
      const [current] = await tx.select().from(reviews).where(eq(reviews.id, id)).for('update');
      if (!current) throw notFound(messages.reviewNotFound);
      if (current.companyId !== company.id) throw forbidden(messages.reviewNotYours);
      await tx
        .update(reviews)
        .set({ reviewTitle: input.reviewTitle, review: input.review, status: input.status, updatedAt: clock.now() })
        .where(eq(reviews.id, id));
      return (await one(tx, id))!;
    });
  }

  /** The writing company deletes its own review; an admin may remove any (recorded as review.remove). */
  async function remove(user: AuthUser, id: string) {
    await db.transaction(async (tx) => {
      const [current] = await tx.select().from(reviews).where(eq(reviews.id, id)).for('update');
      if (!current) throw notFound(messages.reviewNotFound);
      const isOwner = user.userType === 'company' && current.companyId === user.id;
      if (!isOwner && user.userType !== 'admin') throw forbidden(messages.reviewNotYours);
      await tx.delete(reviews).where(eq(reviews.id, id));
      if (!isOwner)
        await recordAudit(tx, {
          actorId: user.id,
          action: 'review.remove',
          targetType: 'review',
          targetId: id,
          details: {
            companyId: current.companyId,
            productId: current.productId,
            reviewTitle: current.reviewTitle,
            status: current.status,
          },
        });
    });
  }

  return { list, create, update, remove };
}
