import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { and, eq } from 'drizzle-orm';
import { companyAnswer, idParam, messages, type CompanyProfile } from '@legalmarket/contracts';
import type { Shared } from '../shared.js';
import { users } from '../../db/schema.js';
import { notFound } from '../../platform/errors.js';
import { toProfile } from '../accounts/service.js';

/** GET /api/company/{id}: an admin views any company's profile. */
export const companiesRoutes: FastifyPluginAsyncZod<{ shared: Shared }> = async (app, { shared }) => {
  app.get(
    '/api/company/:id',
    {
      schema: {
        tags: ['companies'],
        summary: "A company's profile (admin)",
        description:
          'Admin only. Answers `company` at the top of the body, in the profile shape of GET /api/userprofile; 404 when the id is not a company.',
        params: idParam,
        response: { 200: companyAnswer },
      },
      preHandler: shared.auth.require('admin'),
    },
    async (request) => {
      const [row] = await shared.db
        .select()
        .from(users)
        .where(and(eq(users.id, request.params.id), eq(users.userType, 'company')))
        .limit(1);
      if (!row) throw notFound(messages.companyNotFound);
      return { status: 'success' as const, company: toProfile(row) as CompanyProfile };
    },
  );
};
