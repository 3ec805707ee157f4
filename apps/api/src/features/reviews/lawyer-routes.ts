import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  idParam,
  LAWYER_RECORD_SORTS,
  LAWYER_REVIEW_EDIT_DAYS,
  LIMITS,
  lawyerRecordsQuery,
  lawyerRecordsResponse,
  lawyerReplyInput,
  lawyerReviewFields,
  lawyerReviewInput,
  lawyerReviewResponse,
  lawyerReviewsQuery,
  lawyerReviewsResponse,
  messages,
} from '@legalmarket/contracts';
import type { FeatureOptions } from '../shared.js';

const tags = ['reviews'];
const security = [{ bearer: [] }];
/** The newest reviews a lawyer's profile lists by default. */
const REVIEWS_SHOWN = 20;

/**
 * Reviews of lawyers (docs/decisions/2000): company POST /api/lawyer-reviews and PATCH
 * /api/lawyer-reviews/{id}; lawyer POST /api/lawyer-reviews/{id}/reply; signed-in GET
 * /api/lawyers/{id}/reviews; admin GET /api/admin/lawyer-records.
 */
export const lawyerReviewsRoutes: FastifyPluginAsyncZod<FeatureOptions> = async (app, { shared, services }) => {
  const service = services.lawyerReviews;
  const { auth } = shared;

  app.post(
    '/api/lawyer-reviews',
    {
      schema: {
        tags,
        security,
        summary: 'Review the lawyer of a completed job (company)',
        description:
          "`stars` 1 to 5, `reviewTitle` and `review` required, for one of the signed-in company's jobs once it is completed; the review is of the lawyer the job was assigned to. One per job: a second gets 409 (edit the first instead), as does a job not completed yet; another company's job gets 403, an unknown job 404.",
        body: lawyerReviewInput,
        response: { 201: lawyerReviewResponse },
      },
      preHandler: auth.require('company'),
    },
    async (request, reply) => {
      const review = await service.create(request.user!, request.body);
      return reply
        .status(201)
        .send({ status: 'success' as const, message: messages.lawyerReviewSubmitted, data: { review } });
    },
  );

  app.patch(
    '/api/lawyer-reviews/:id',
    {
      schema: {
        tags,
        security,
        summary: 'Edit a review of a lawyer (the company that wrote it)',
        description: `Same fields as writing it, for ${LAWYER_REVIEW_EDIT_DAYS} days after it was written (\`editableUntil\`); later gets 409. Anyone but the writing company gets 403.`,
        params: idParam,
        body: lawyerReviewFields,
        response: { 200: lawyerReviewResponse },
      },
      preHandler: auth.require('company'),
    },
    async (request) => {
      const review = await service.update(request.user!, request.params.id, request.body);
      return { status: 'success' as const, message: messages.lawyerReviewUpdated, data: { review } };
    },
  );

  app.post(
    '/api/lawyer-reviews/:id/reply',
    {
      schema: {
        tags,
        security,
        summary: 'Answer a review (the reviewed lawyer, once)',
        description:
          'The lawyer the review is about answers it once with `reply`; a second answer gets 409, any other lawyer 403.',
        params: idParam,
        body: lawyerReplyInput,
        response: { 200: lawyerReviewResponse },
      },
      preHandler: auth.require('lawyer'),
    },
    async (request) => {
      const review = await service.reply(request.user!, request.params.id, request.body.reply);
      return { status: 'success' as const, message: messages.lawyerReplySent, data: { review } };
    },
  );

  app.get(
    '/api/lawyers/:id/reviews',
    {
      schema: {
        tags,
        security,
        summary: "A lawyer's reviews, average and count",
        description: `Any signed-in user. \`average\` is the mean of every review's stars to one decimal (null with none), \`count\` every review; \`reviews\` the newest ${REVIEWS_SHOWN} (or \`limit\`), or with \`jobId\` only that job's review (to that job's company, its lawyer and admins; anyone else finds none, decision 2238). Each review's \`jobId\` is null except to that job's company, its lawyer and admins. 404 when the id is not a lawyer.`,
        params: idParam,
        querystring: lawyerReviewsQuery,
        response: { 200: lawyerReviewsResponse },
      },
      preHandler: auth.require('company', 'lawyer', 'admin'),
    },
    async (request) => ({
      status: 'success' as const,
      data: await service.ofLawyer(request.user!, request.params.id, {
        jobId: request.query.jobId,
        limit: request.query.limit ?? REVIEWS_SHOWN,
      }),
    }),
  );

  app.get(
    '/api/admin/lawyer-records',
    {
      schema: {
        tags: ['admin'],
        security,
        summary: "Lawyers' track records (admin assign page)",
        description: `Verified lawyers, or with \`jobId\` the lawyers who applied for that job, each with \`average\` stars, \`reviews\`, \`completedJobs\`, \`onTimeJobs\` (completed by their due date) and \`onTimeRate\`. \`sort\`: ${LAWYER_RECORD_SORTS.join(', ')} (default newest; the others best first). Paged: \`page\` from 1, \`limit\` default ${LIMITS.adminPageSize}. Admins only: guests get 401, companies and lawyers 403.`,
        querystring: lawyerRecordsQuery,
        response: { 200: lawyerRecordsResponse },
      },
      preHandler: auth.require('admin'),
    },
    async (request) => {
      const page = request.query.page ?? 1;
      const limit = request.query.limit ?? LIMITS.adminPageSize;
      const { items, total } = await service.records({
        jobId: request.query.jobId,
        sort: request.query.sort ?? 'newest',
        page,
        limit,
      });
      return { status: 'success' as const, page, limit, total, results: items.length, lawyers: items };
    },
  );
};
