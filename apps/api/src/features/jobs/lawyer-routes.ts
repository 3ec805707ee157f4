import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  applyForJobInput,
  AVAILABLE_JOBS_PAGE,
  availableJobsQuery,
  EARNINGS_PAGE,
  earningsQuery,
  earningsResponse,
  idParam,
  lawyerIdQuery,
  LAWYER_LIST_MAX,
  LIST_CAP,
  LIST_LIMIT_MAX,
  lawyerJobSchema,
  lawyerListPage,
  lawyerProjectsQuery,
  messages,
  okMessage,
  requestDetailsInput,
} from '@legalmarket/contracts';
import type { FeatureOptions } from '../shared.js';
import { forbidden } from '../../platform/errors.js';
import { JOB_PAGE_READS, CACHED_UNTIL_LATE } from './view.js';
import { sendJson } from '../../platform/response-cache.js';

const tags = ['lawyer jobs'];
const security = [{ bearer: [] }];
const ok = (message: string) => ({ status: 'success' as const, message });
const jobList = z.array(lawyerJobSchema);

/** Available jobs, one job, applications and the lawyer's own projects (spec: lawyer-and-admin sections 2 and 7). */
export const lawyerJobRoutes: FastifyPluginAsyncZod<FeatureOptions> = async (app, { shared, services }) => {
  const service = services.lawyerJobs;
  const { auth } = shared;

  /** The spec sends lawyerId along; the server acts for the session's lawyer and refuses anyone else's id. */
  const assertSelf = (claimed: string | undefined, userId: string) => {
    if (claimed !== undefined && claimed !== userId) throw forbidden(messages.forbidden);
  };

  app.get(
    '/job-api/jobs',
    {
      schema: {
        tags,
        summary: 'Open jobs a lawyer can apply for',
        description: `Only jobs with status unassigned and nobody assigned. \`sort=bestfit\` (Best fit, the default: jobs whose product area is one of the lawyer's areas of practice first, then those waiting longest first; decision 2011) or \`sort=recent\` (Recent jobs: createdAt newest first); the tab labels \`Best fit\` and \`Recent jobs\` are read as these ids (case and spaces do not matter), and \`-createdAt\` as \`recent\`; \`sortOption\` or \`sortBy\` stand for \`sort\`, which wins when more are sent (decision 2248). Without \`page\`: the whole list (the spec's client reads a list), up to \`limit\` jobs (default ${LIST_CAP}, at most ${LIST_LIMIT_MAX}); with \`page\` (from 1): that page of \`limit\` jobs (1-50, default ${AVAILABLE_JOBS_PAGE}). The number of open jobs is in the \`X-Total-Count\` header. The company's e-mail and phone are left empty until the job is assigned to the reading lawyer. Verified and unverified lawyers (and admins) may list: verified lawyers read the brief (details, file names) but never a file's key (\`companyFile\`, \`adminFile\` are null), unverified lawyers only the product and amount (brief fields null, the company's \`_id\` and \`companyName\` empty, \`briefWithheld: true\`; decision 2238); admins read the keys. Cached per lawyer and verification state until a job, product, user or application changes, or a job shown turns late.`,
        querystring: availableJobsQuery,
        response: { 200: jobList },
        security,
      },
      preHandler: auth.require('lawyer', 'admin'),
    },
    (request, reply) =>
      shared.responses.send(
        request,
        reply,
        JOB_PAGE_READS,
        async () => {
          const { sort, ...paging } = request.query;
          const q = { sort, ...lawyerListPage(paging, AVAILABLE_JOBS_PAGE) };
          const { json, total } = await service.availableJobs(request.user!, q);
          return { json, headers: { 'x-total-count': String(total), 'cache-control': 'no-store' } };
        },
        jobList,
        CACHED_UNTIL_LATE,
      ),
  );

  app.get(
    '/job-api/job/:id',
    {
      schema: {
        tags,
        summary: 'One job',
        description:
          "Lawyers read an open job or a job assigned to them (any other answers 404), an open job as in GET /job-api/jobs (no file keys; unverified lawyers no brief and no company name or id, decision 2238); admins read any job with its applicants (`appliedLawer`); companies read their own jobs, the assigned lawyer's e-mail and phone empty (decision 2238). `lawyerId` is accepted as in the spec: a lawyer's or company's must be the caller's own id; an admin opening the lawyer job page may send any lawyer's (decision 2150). Empty, `null` or `undefined` counts as not sent.",
        params: idParam,
        querystring: lawyerIdQuery,
        response: { 200: lawyerJobSchema },
        security,
      },
      preHandler: auth.require(),
    },
    async (request) => {
      // An admin passes every guarded page (spec section 6), the lawyer job page with its lawyerId too.
      if (request.user!.userType !== 'admin') assertSelf(request.query.lawyerId, request.user!.id);
      return service.oneJob(request.user!, request.params.id);
    },
  );

  app.post(
    '/job-api/applyforjob/:id',
    {
      schema: {
        tags,
        summary: 'Apply for an open job',
        description:
          "Body `{ lawyerId }` (optional; when sent it must be the caller; empty, null or `undefined` counts as not sent). Verified lawyers only: an unverified lawyer gets 403 with the spec's message. Applying again changes nothing and answers the same. A job that is no longer open answers 409.",
        params: idParam,
        body: applyForJobInput,
        response: { 200: okMessage },
        security,
      },
      preHandler: auth.require('lawyer'),
    },
    async (request) => {
      assertSelf(request.body?.lawyerId, request.user!.id);
      await service.apply(request.user!, request.params.id);
      return ok(messages.jobApplied);
    },
  );

  for (const status of ['pending', 'completed'] as const) {
    app.get(
      `/job-api/lawyer/${status}jobs`,
      {
        schema: {
          tags,
          summary: `The signed-in lawyer's ${status} projects`,
          description: `Only jobs assigned to the caller with status ${status}, ${status === 'completed' ? 'latest completed first' : 'latest assigned first'}. Without \`page\`: the whole list, up to \`limit\` jobs (default ${LIST_CAP}, at most ${LIST_LIMIT_MAX}); with \`page\` (from 1): that page of \`limit\` jobs (1-${LAWYER_LIST_MAX}, default ${LAWYER_LIST_MAX}). The count is in \`X-Total-Count\`.`,
          querystring: lawyerProjectsQuery,
          response: { 200: jobList },
          security,
        },
        preHandler: auth.require('lawyer'),
      },
      async (request, reply) => {
        const { json, total } = await service.projects(
          request.user!,
          status,
          lawyerListPage(request.query, LAWYER_LIST_MAX),
        );
        // The database built the JSON (features/jobs/view.ts jobViewsJsonQuery): sent as it is.
        reply.header('x-total-count', String(total)).header('cache-control', 'no-store');
        return sendJson(reply, json);
      },
    );
  }

  app.get(
    '/job-api/lawyer/earnings',
    {
      schema: {
        tags,
        summary: "The signed-in lawyer's completed work in naira",
        description:
          'Number of completed jobs assigned to the caller and their amounts added up (what the companies paid), and from the ledger the caller’s share: `available` to withdraw now, `pending` in the holding period (`holdDays` after completion), and each completed job with the platform commission (`commissionPercent`) taken off, newest first, ' +
          `${EARNINGS_PAGE} at a time: \`older\` is present when older jobs remain, and \`before={older}\` answers the next page (the figures above are the whole account's on every page). A \`before\` that is not a positive whole number answers 400 "before must be the older of an earnings answer".`,
        querystring: earningsQuery,
        response: { 200: earningsResponse },
        security,
      },
      preHandler: auth.require('lawyer'),
    },
    async (request) => ({
      status: 'success' as const,
      data: { ...(await service.earnings(request.user!.id, request.query.before)), currency: 'NGN' as const },
    }),
  );

  app.post(
    '/job-api/requestmorejobdetails/:id',
    {
      schema: {
        tags,
        summary: 'Ask the company for more details',
        description:
          "Body `{ detail }` (empty, or only blanks and invisible characters such as zero-width spaces or variation selectors: 400 \"Kindly request details\"). Only on a pending job assigned to the caller while the lawyer works on it (another lawyer's, a completed or a cancelled job: 404; a pending job whose delivery awaits the company's answer: 409 naming the stage, decision 2200). Sets the job's lawyerRequestedDetail, which the company sees in its Notifications, and e-mails the company. Sending again replaces the request; the same words sent again within a minute with nothing in between (a double tap, a retry) are taken, told and mailed once (decision 2221).",
        params: idParam,
        body: requestDetailsInput,
        response: { 200: okMessage },
        security,
      },
      preHandler: auth.require('lawyer'),
    },
    async (request) => {
      await service.requestDetails(request.user!, request.params.id, request.body.detail);
      return ok(messages.requestSent);
    },
  );
};
