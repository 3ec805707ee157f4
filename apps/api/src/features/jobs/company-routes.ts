import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { companyJobDetailsBody, companyJobEditedResponse, companyJobsResponse, messages } from '@legalmarket/contracts';
import type { FeatureOptions } from '../shared.js';
import { JOB_VIEW_READS, CACHED_UNTIL_LATE } from './view.js';

const tags = ['jobs'];

/** A company's own jobs (spec: company document, screen 13). */
export const companyJobRoutes: FastifyPluginAsyncZod<FeatureOptions> = async (app, { shared, services }) => {
  const jobs = services.companyJobs;
  const companyOnly = shared.auth.require('company');

  app.get(
    '/job-api/company/pendingjobs',
    {
      schema: {
        tags,
        summary: "The company's jobs not yet completed",
        description:
          'Company only. Unassigned and pending jobs of the signed-in company, newest first, as an array in the shared job shape (productId{...}, companyDetail, lawyerRequestedDetail, adminDetail, assignedTo[], ...; amounts in naira). The assigned lawyer is named, its e-mail and phone empty: the job page reaches it (decision 2238).',
        response: { 200: companyJobsResponse },
      },
      preHandler: companyOnly,
    },
    (request, reply) =>
      shared.responses.send(
        request,
        reply,
        JOB_VIEW_READS,
        async () => ({
          json: await jobs.pending(request.user!.id),
        }),
        companyJobsResponse,
        CACHED_UNTIL_LATE,
      ),
  );

  app.get(
    '/job-api/company/completedjobs',
    {
      schema: {
        tags,
        summary: "The company's completed jobs",
        description:
          'Company only. Completed jobs of the signed-in company, newest first, as an array; the assigned lawyer named, its e-mail and phone empty (decision 2238).',
        response: { 200: companyJobsResponse },
      },
      preHandler: companyOnly,
    },
    (request, reply) =>
      shared.responses.send(
        request,
        reply,
        JOB_VIEW_READS,
        async () => ({
          json: await jobs.completed(request.user!.id),
        }),
        companyJobsResponse,
        CACHED_UNTIL_LATE,
      ),
  );

  app.put(
    '/job-api/company/editjobdetails/:jobId',
    {
      schema: {
        tags,
        summary: 'Give more details on a job',
        description:
          "Company only, own jobs only (another company's job answers 404). Sets the company's `detail` (as companyDetail; empty, or only blanks and invisible characters: 400 \"Kindly add/edit details\"), and when given `file` (a URL answered by POST /api/uploads for this company: a file someone else uploaded answers 403, an unknown one 400) and `fileName`; the job keeps `file` as sent, and the thread names one of our uploads by `/uploads/<key>` whatever host it was sent with, so it opens for the job's lawyer after a later file replaces it (decision 2230); `file` and `fileName` sent empty or null count as not sent, and the document attached earlier stays (decisions 2110, 2210). An empty detail answers 400 `Kindly add/edit details`; a completed or cancelled job cannot be edited (409), nor a delivered one, which waits for the company to accept it or ask for changes (409 naming the stage; decision 2200). The same details sent again within a minute with nothing in between (a double tap, a retry) are taken and told once (decision 2221). Answers the job as the lists do (the lawyer's e-mail and phone empty, decision 2238).",
        params: z.object({ jobId: z.uuid('jobId must be a valid job id') }),
        body: companyJobDetailsBody,
        response: { 200: companyJobEditedResponse },
      },
      preHandler: companyOnly,
    },
    async (request) => {
      const job = await jobs.editDetails(request.user!, request.params.jobId, request.body);
      return { status: 'success' as const, message: messages.editedSuccessfully, data: job };
    },
  );
};
