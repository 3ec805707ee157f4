import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { and, eq } from 'drizzle-orm';
import { idParam, messages } from '@legalmarket/contracts';
import type { Shared } from '../../app.js';
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
          'Admin only. Answers `data.company` in the profile shape of GET /api/userprofile; 404 when the id is not a company.',
        params: idParam,
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
      return { status: 'success', data: { company: toProfile(row) } };
    },
  );
};
