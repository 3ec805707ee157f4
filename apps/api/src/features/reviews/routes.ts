import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParam, messages, okMessage, reviewAnswer, reviewInput, reviewsAnswer } from '@legalmarket/contracts';
import type { Shared } from '../../app.js';
import { createReviewsService } from './service.js';

const tags = ['reviews'];

/** GET /ratings-api/rating; company POST/PATCH /api/rating; DELETE /api/rating/{id} (owner or admin). */
export const reviewsRoutes: FastifyPluginAsyncZod<{ shared: Shared }> = async (app, { shared }) => {
  const service = createReviewsService(shared);
  const { auth } = shared;

  app.get(
    '/ratings-api/rating',
    {
      schema: {
        tags,
        summary: 'Reviews',
        description:
          'All reviews, newest first, each with `companyId { _id, companyName }` and the stars in `status`; `productId` narrows to one product. `average` is the mean of the listed stars to one decimal (0 when none).',
        querystring: z.object({ productId: z.uuid('productId must be a valid id').optional() }),
        response: { 200: reviewsAnswer },
      },
    },
    async (request) => {
      const { reviews, average } = await service.list({ productId: request.query.productId });
      return {
        status: 'success' as const,
        message: messages.gottenAllReviews,
        results: reviews.length,
        average,
        data: { reviews },
      };
    },
  );

  app.post(
    '/api/rating',
    {
      schema: {
        tags,
        summary: 'Write a review (company)',
        description:
          'Title and text required, `status` is the star count 1 to 5, for a product on sale. The review belongs to the signed-in company. Sending the same review twice within a minute creates it once.',
        security: [{ bearer: [] }],
        body: reviewInput,
        response: { 201: reviewAnswer },
      },
      preHandler: auth.require('company'),
    },
    async (request, reply) => {
      const review = await service.create(request.user!, request.body);
      return reply
        .status(201)
        .send({ status: 'success' as const, message: messages.reviewSubmitted, data: { review } });
    },
  );

  app.patch(
    '/api/rating/:id',
    {
      schema: {
        tags,
        summary: 'Edit a review (the company that wrote it)',
        description:
          'Same fields as creating; `productId` may be sent but a review never moves to another product. Anyone but the writing company gets 403.',
        security: [{ bearer: [] }],
        params: idParam,
        body: reviewInput.partial({ productId: true }),
        response: { 200: reviewAnswer },
      },
      preHandler: auth.require('company'),
    },
    async (request) => {
      const { reviewTitle, review, status } = request.body;
      const updated = await service.update(request.user!, request.params.id, { reviewTitle, review, status });
      return { status: 'success' as const, message: messages.reviewUpdated, data: { review: updated } };
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
