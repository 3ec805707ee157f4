import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  idParam,
  LIST_CAP,
  LIST_LIMIT_MAX,
  listQuery,
  messages,
  okMessage,
  reviewResponse,
  reviewInput,
  reviewsResponse,
} from '@legalmarket/contracts';
import type { FeatureOptions } from '../shared.js';
import { lawyerReviewsRoutes } from './lawyer-routes.js';

const tags = ['reviews'];

/** GET /ratings-api/rating; company POST/PATCH /api/rating; DELETE /api/rating/{id} (owner or admin). */
export const reviewsRoutes: FastifyPluginAsyncZod<FeatureOptions> = async (app, { shared, services }) => {
  const service = services.reviews;
  const { auth } = shared;
  await app.register(lawyerReviewsRoutes, { shared, services });

  app.get(
    '/ratings-api/rating',
    {
      schema: {
        tags,
        summary: 'Reviews',
        description: `An array of reviews, newest first, each with \`companyId { _id, companyName }\`, the stars in \`status\` and \`verifiedPurchase\` (the company bought the product); \`productId\` narrows to one product. The whole list up to \`limit\` reviews (default ${LIST_CAP}, at most ${LIST_LIMIT_MAX}); a client works out the average from the listed \`status\` (\`averageStars\` in @legalmarket/contracts). Decision 0901.`,
        querystring: z.object({
          productId: z.uuid('productId must be a valid id').optional(),
          limit: listQuery.shape.limit,
        }),
        response: { 200: reviewsResponse },
      },
    },
    async (request) => service.list({ productId: request.query.productId, limit: request.query.limit ?? LIST_CAP }),
  );

  app.post(
    '/api/rating',
    {
      schema: {
        tags,
        summary: 'Write a review (company)',
        description:
          'Title and text required, `status` is the star count 1 to 5, for a product on sale. The review belongs to the signed-in company, which has one review per product: the first POST creates it (201, "Review Submitted Successfully"), a later one edits that same review (200, "Review Updated Successfully", same `_id`); decision 2001. `verifiedPurchase` is true when the company bought the product. Answers the review itself, with `companyId { _id, companyName }`, and `message`.',
        security: [{ bearer: [] }],
        body: reviewInput,
        response: { 200: reviewResponse, 201: reviewResponse },
      },
      preHandler: auth.require('company'),
    },
    async (request, reply) => {
      const { review, created } = await service.create(request.user!, request.body);
      return reply
        .status(created ? 201 : 200)
        .send({ ...review, message: created ? messages.reviewSubmitted : messages.reviewUpdated });
    },
  );

  app.patch(
    '/api/rating/:id',
    {
      schema: {
        tags,
        summary: 'Edit a review (the company that wrote it)',
        description:
          'Same fields as creating; `productId` may be sent but a review never moves to another product. Anyone but the writing company gets 403. Answers the review itself, as creating does.',
        security: [{ bearer: [] }],
        params: idParam,
        body: reviewInput.partial({ productId: true }),
        response: { 200: reviewResponse },
      },
      preHandler: auth.require('company'),
    },
    async (request) => {
      const { reviewTitle, review, status } = request.body;
      const updated = await service.update(request.user!, request.params.id, { reviewTitle, review, status });
      return { ...updated, message: messages.reviewUpdated };
    },
  );

  app.delete(
    '/api/rating/:id',
    {
      schema: {
        tags,
        summary: 'Delete a review (the company that wrote it, or an admin)',
        description: "Other companies and lawyers get 403. An admin's removal is recorded in the audit log.",
        security: [{ bearer: [] }],
        params: idParam,
        response: { 200: okMessage },
      },
      preHandler: auth.require('company', 'admin'),
    },
    async (request) => {
      await service.remove(request.user!, request.params.id);
      return { status: 'success' as const, message: messages.reviewDeleted };
    },
  );
};
