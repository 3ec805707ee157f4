import { z } from 'zod';
import { listed } from './admin.js';
import { LIST_LIMIT_MAX } from './constants.js';
import { dataResponse, numberOrDigits } from './common.js';
import { messages } from './messages.js';

/** A company's review of a lawyer may be edited this many days after it was written (issue 20). */
export const LAWYER_REVIEW_EDIT_DAYS = 14;
export const LAWYER_REVIEW_EDIT_MS = LAWYER_REVIEW_EDIT_DAYS * 24 * 60 * 60 * 1000;

const stars = numberOrDigits(
  z
    .number({ error: messages.chooseStars })
    .int(messages.chooseStars)
    .min(1, messages.chooseStars)
    .max(5, messages.chooseStars),
);
const reviewTitle = z
  .string({ error: messages.enterReviewTitle })
  .trim()
  .min(1, messages.enterReviewTitle)
  .max(120, 'Review title must be at most 120 characters');
const review = z
  .string({ error: messages.enterReviewText })
  .trim()
  .min(1, messages.enterReviewText)
  .max(2000, 'review must be at most 2000 characters');

/** PATCH /api/lawyer-reviews/{id}: the company's stars (1 to 5), title and text. */
export const lawyerReviewFields = z.object({ stars, reviewTitle, review });
export type LawyerReviewFields = z.input<typeof lawyerReviewFields>;

/** POST /api/lawyer-reviews: the same fields for one completed job of the signed-in company. */
export const lawyerReviewInput = lawyerReviewFields.extend({ jobId: z.uuid('jobId must be a valid id') });
export type LawyerReviewInput = z.input<typeof lawyerReviewInput>;

/** POST /api/lawyer-reviews/{id}/reply: the lawyer's one answer. */
export const lawyerReplyInput = z.object({
  reply: z
    .string({ error: messages.enterReply })
    .trim()
    .min(1, messages.enterReply)
    .max(2000, 'reply must be at most 2000 characters'),
});
export type LawyerReplyInput = z.input<typeof lawyerReplyInput>;

export const lawyerReview = z.object({
  _id: z.string(),
  /** The reviewed job; null to anyone but its company, its lawyer and admins (a company's job ids are its own). */
  jobId: z.string().nullable(),
  lawyerId: z.string(),
  stars: z.number(),
  reviewTitle: z.string(),
  review: z.string(),
  companyId: z.object({ _id: z.string(), companyName: z.string() }),
  /** The product the job was for. */
  productName: z.string(),
  reply: z.string().nullable(),
  repliedAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Until when the company may still edit it (created + 14 days). */
  editableUntil: z.string(),
});
export type LawyerReview = z.infer<typeof lawyerReview>;

/** A review as created, edited or answered. */
export const lawyerReviewResponse = dataResponse('review', lawyerReview);
export type LawyerReviewResponse = z.infer<typeof lawyerReviewResponse>;

/** GET /api/lawyers/{id}/reviews: the lawyer's average (null with no review), count and newest reviews. */
export const lawyerReviewsQuery = z.object({
  jobId: z.uuid('jobId must be a valid id').optional(),
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(LIST_LIMIT_MAX, `limit must be at most ${LIST_LIMIT_MAX}`)
    .optional(),
});
export const lawyerReviewsResponse = z.object({
  status: z.literal('success'),
  data: z.object({
    average: z.number().nullable(),
    count: z.number(),
    reviews: z.array(lawyerReview),
  }),
});
export type LawyerReviewsResponse = z.infer<typeof lawyerReviewsResponse>;

/** How the admin's assign page may order lawyers (all from the best down; `newest` is the default). */
export const LAWYER_RECORD_SORTS = ['newest', 'rating', 'reviews', 'completed', 'onTime'] as const;
export type LawyerRecordSort = (typeof LAWYER_RECORD_SORTS)[number];

/** GET /api/admin/lawyer-records: verified lawyers, or with `jobId` the lawyers who applied for it. */
export const lawyerRecordsQuery = z.object({
  jobId: z.uuid('jobId must be a valid id').optional(),
  sort: z.enum(LAWYER_RECORD_SORTS, { error: `sort must be one of ${LAWYER_RECORD_SORTS.join(', ')}` }).optional(),
  page: z.coerce
    .number({ error: 'page must be a number' })
    .int('page must be a whole number')
    .min(1, 'page must be at least 1')
    .max(1_000_000, 'page is too large')
    .optional(),
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(LIST_LIMIT_MAX, `limit must be at most ${LIST_LIMIT_MAX}`)
    .optional(),
});
export type LawyerRecordsQuery = z.input<typeof lawyerRecordsQuery>;

/** A lawyer's track record: reviews, completed jobs and how many of those met their due date. */
export const lawyerRecord = z.object({
  _id: z.string(),
  name: z.string(),
  scn: z.string().nullable(),
  verified: z.boolean(),
  profileImage: z.object({ url: z.string() }).nullable(),
  createdAt: z.string(),
  average: z.number().nullable(),
  reviews: z.number(),
  completedJobs: z.number(),
  onTimeJobs: z.number(),
  /** onTimeJobs / completedJobs, 0 to 1; null before the first completed job. */
  onTimeRate: z.number().nullable(),
});
export type LawyerRecord = z.infer<typeof lawyerRecord>;
export const lawyerRecordsResponse = listed('lawyers', lawyerRecord);
export type LawyerRecordsResponse = z.infer<typeof lawyerRecordsResponse>;
