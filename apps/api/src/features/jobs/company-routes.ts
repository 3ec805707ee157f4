import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { and, eq, ne } from 'drizzle-orm';
import { z } from 'zod';
import { companyJobDetailsInput, companyJobEditedAnswer, companyJobsAnswer, messages } from '@legalmarket/contracts';
import type { Shared } from '../shared.js';
import { jobs } from '../../db/schema.js';
import { conflict, notFound } from '../../platform/errors.js';
import { assertAttachable } from '../uploads/service.js';
import { findJobViews, JOB_VIEW_READS } from './view.js';

const tags = ['jobs'];
const blankToNull = (v: string | undefined) => (v && v.trim() ? v.trim() : null);

/** A company's own jobs (spec: company document, screen 13). */
export const companyJobRoutes: FastifyPluginAsyncZod<{ shared: Shared }> = async (app, { shared }) => {
  const { db, clock } = shared;
  const companyOnly = shared.auth.require('company');

  app.get(
    '/job-api/company/pendingjobs',
    {
      schema: {
        tags,
        summary: "The company's jobs not yet completed",
        description:
          'Company only. Unassigned and pending jobs of the signed-in company, newest first, as an array in the shared job shape (productId{...}, companyDetail, lawyerRequestedDetail, adminDetail, assignedTo[], ...; amounts in naira).',
        response: { 200: companyJobsAnswer },
      },
      preHandler: companyOnly,
    },
    (request, reply) =>
      shared.answers.send(
        request,
        reply,
        JOB_VIEW_READS,
        async () => ({
          value: await findJobViews(db, and(eq(jobs.companyId, request.user!.id), ne(jobs.status, 'completed'))),
        }),
        companyJobsAnswer,
      ),
  );

  app.get(
    '/job-api/company/completedjobs',
    {
      schema: {
        tags,
        summary: "The company's completed jobs",
        description: 'Company only. Completed jobs of the signed-in company, newest first, as an array.',
        response: { 200: companyJobsAnswer },
      },
      preHandler: companyOnly,
    },
    (request, reply) =>
      shared.answers.send(
        request,
        reply,
        JOB_VIEW_READS,
        async () => ({
          value: await findJobViews(db, and(eq(jobs.companyId, request.user!.id), eq(jobs.status, 'completed'))),
        }),
        companyJobsAnswer,
      ),
  );

  app.put(
    '/job-api/company/editjobdetails/:jobId',
    {
      schema: {
        tags,
        summary: 'Give more details on a job',
        description:
          "Company only, own jobs only (another company's job answers 404). Sets the company's `detail` (as companyDetail), and when given `file` (a URL answered by POST /api/uploads for this company: a file someone else uploaded answers 403, an unknown one 400) and `fileName`. An empty detail answers 400 `Kindly add/edit details`; a completed job cannot be edited (409).",
        params: z.object({ jobId: z.uuid('jobId must be a valid job id') }),
        body: companyJobDetailsInput,
        response: { 200: companyJobEditedAnswer },
      },
      preHandler: companyOnly,
    },
    async (request) => {
      const { detail, file, fileName } = request.body;
      const companyId = request.user!.id;
      const set: Partial<typeof jobs.$inferInsert> = { companyDetail: detail, updatedAt: clock.now() };
      if (blankToNull(file)) {
        const [own] = await db
          .select({ companyFile: jobs.companyFile })
          .from(jobs)
          .where(and(eq(jobs.id, request.params.jobId), eq(jobs.companyId, companyId)))
          .limit(1);
        await assertAttachable(db, request.user!, file, own?.companyFile ?? null);
        set.companyFile = blankToNull(file);
        set.companyFileName = blankToNull(fileName) ?? 'Document';
      }
      const updated = await db
        .update(jobs)
        .set(set)
        .where(and(eq(jobs.id, request.params.jobId), eq(jobs.companyId, companyId), ne(jobs.status, 'completed')))
        .returning({ id: jobs.id });
      if (!updated.length) {
        const [own] = await db
          .select({ status: jobs.status })
          .from(jobs)
          .where(and(eq(jobs.id, request.params.jobId), eq(jobs.companyId, companyId)))
          .limit(1);
        if (own?.status === 'completed') throw conflict(messages.jobClosedForEdits);
        throw notFound(messages.notFound);
      }
      const [job] = await findJobViews(db, eq(jobs.id, request.params.jobId));
      return { status: 'success' as const, message: messages.editedSuccessfully, data: job };
    },
  );
};
