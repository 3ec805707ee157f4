import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { companyResponse, idParam } from '@legalmarket/contracts';
import type { FeatureOptions } from '../shared.js';

/** GET /api/company/{id}: an admin views any company's profile. */
export const companiesRoutes: FastifyPluginAsyncZod<FeatureOptions> = async (app, { shared, services }) => {
  app.get(
    '/api/company/:id',
    {
      schema: {
        tags: ['companies'],
        summary: "A company's profile (admin)",
        description:
          "Admin only. Answers the company in the profile shape of GET /api/userprofile, both as `company` at the top of the body and as `data.company` (the spec's table answers `data.company`, as it answers the login's `data.user`; decision 2210); 404 when the id is not a company.",
        params: idParam,
        response: { 200: companyResponse },
      },
      preHandler: shared.auth.require('admin'),
    },
    async (request) => {
      const company = await services.companies.profile(request.params.id);
      return { status: 'success' as const, company, data: { company } };
    },
  );
};
