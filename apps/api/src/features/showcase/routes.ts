import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { showcaseResponse } from '@legalmarket/contracts';
import type { FeatureOptions } from '../shared.js';

/** The public figures of the landing and About pages. */
export const showcaseRoutes: FastifyPluginAsyncZod<FeatureOptions> = async (app, { services }) => {
  app.get(
    '/api/showcase',
    {
      schema: {
        tags: ['platform'],
        summary: 'Verified lawyers, jobs completed and featured products (landing and About pages)',
        description: [
          'Public. `verifiedLawyers` counts lawyer accounts an admin has verified; `jobsCompleted` counts jobs whose status is `completed` (the jobs triggers keep that count); `products` are the first three products of the catalogue, in its order (newest first), shaped as GET /product-api/products shapes them.',
          'Sent with the server-rendered landing page as its data. Cached by browsers and proxies for 60 s.',
        ].join('\n\n'),
        response: { 200: showcaseResponse },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=60');
      return services.showcase.showcase();
    },
  );
};
