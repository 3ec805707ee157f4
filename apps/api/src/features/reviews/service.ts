import { and, desc, eq, gt, type SQL } from 'drizzle-orm';
import { messages, type Review, type ReviewInput } from '@legalmarket/contracts';
import type { Db, Executor } from '../../db/client.js';
import { products, reviews, users } from '../../db/schema.js';
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
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

/** A double-submitted form (same company, product and text within this window) creates one review. */
const REPEAT_WINDOW_MS = 60_000;

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

  async function create(company: AuthUser, input: Required<Pick<ReviewInput, 'productId'>> & ReviewFields) {
    return db.transaction(async (tx) => {
      const product = await findLiveProduct(tx, input.productId);
      if (!product) throw notFound(messages.productNotFound);
      const now = clock.now();
      const [same] = await tx
        .select({ id: reviews.id })
        .from(reviews)
        .where(
          and(
            eq(reviews.companyId, company.id),
            eq(reviews.productId, input.productId),
            eq(reviews.reviewTitle, input.reviewTitle),
            eq(reviews.review, input.review),
            eq(reviews.status, input.status),
            gt(reviews.createdAt, new Date(now.getTime() - REPEAT_WINDOW_MS)),
          ),
        )
        .limit(1);
      if (same) return (await one(tx, same.id))!;
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
        .returning({ id: reviews.id });
      return (await one(tx, row.id))!;
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
