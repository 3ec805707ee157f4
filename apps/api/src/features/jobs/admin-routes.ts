import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  adminJobsResponse,
  adminJobsPageResponse,
  assignJobBody,
  editJobDetailsBody,
  idParam,
  LIST_CAP,
  LIST_LIMIT_MAX,
  listPaging,
  listQuery,
  messages,
  oneJobResponse,
  payOnCompleteCheck,
  TWO_FACTOR,
  twoFactorMessages,
  type JobStatus,
} from '@legalmarket/contracts';
import type { FeatureOptions } from '../shared.js';
import { badRequest } from '../../platform/errors.js';
import { JOB_PAGE_READS, CACHED_UNTIL_LATE } from './view.js';

/**
 * The check a completion's body asks for: none without `payOnComplete` (the spec's call sends no body,
 * and other fields are ignored as on every route); a half or mistyped one is refused rather than paying
 * unchecked.
 */
function shownOf(body: unknown): z.infer<typeof payOnCompleteCheck> | undefined {
  if (typeof body !== 'object' || body === null || !('payOnComplete' in body)) return undefined;
  const shown = payOnCompleteCheck.safeParse(body.payOnComplete);
  if (!shown.success) throw badRequest(shown.error.issues[0]!.message);
  return shown.data;
}

const tags = ['jobs (admin)'];
const security = [{ bearer: [] }];
const ADMIN_ONLY = 'Admins only: guests get 401, companies and lawyers 403.';
const LIFECYCLE =
  'Applies the job lifecycle table (packages/contracts/src/jobs.ts); a change the table does not allow in the job’s state answers 409 with the reason.';

/** Admin job lists and the admin's lifecycle actions: assign, complete, add details. */
export const jobsAdminRoutes: FastifyPluginAsyncZod<FeatureOptions> = async (app, { shared, services }) => {
  const jobsAdmin = services.jobsAdmin;
  const onlyAdmin = shared.auth.require('admin');

  const lists: Array<[string, JobStatus, string]> = [
    ['/job-api/unassign', 'unassigned', 'Unassigned jobs'],
    ['/job-api/pendingjobs', 'pending', 'Pending (assigned) jobs'],
    ['/job-api/completedjobs', 'completed', 'Completed jobs'],
  ];
  for (const [url, status, summary] of lists) {
    app.get(
      url,
      {
        schema: {
          tags,
          security,
          summary,
          description: `Newest first, each in the one job shape with \`appliedLawer\` filled and \`assignedTo[0].verified\` (false when the lawyer lost verification or the account, so the job needs passing to another lawyer; decision 2333). Without \`page\`: an array of jobs (as the spec's client reads it), the whole list up to \`limit\` jobs (default ${LIST_CAP}, at most ${LIST_LIMIT_MAX}). With \`page\` (from 1): the paged form \`{ status, jobs, page, limit, total, results }\`, \`limit\` defaulting to 5, \`total\` counting every job in this state. Decision 0901. ${ADMIN_ONLY}`,
          querystring: listQuery,
          response: { 200: z.union([adminJobsResponse, adminJobsPageResponse]) },
        },
        preHandler: onlyAdmin,
      },
      (request, reply) => {
        const q = listPaging(request.query);
        return shared.responses.send(
          request,
          reply,
          JOB_PAGE_READS,
          async () => {
            const { items, total, reordersAt } = await jobsAdmin.list(status, q);
            if (!q.paged) return { value: items, until: reordersAt };
            const value = {
              status: 'success' as const,
              page: q.page,
              limit: q.limit,
              total,
              results: items.length,
              jobs: items,
            };
            return { value, until: reordersAt };
          },
          q.paged ? adminJobsPageResponse : adminJobsResponse,
          CACHED_UNTIL_LATE,
        );
      },
    );
  }

  app.get(
    '/job-api/admin/job/:id',
    {
      schema: {
        tags,
        security,
        summary: 'One job with its applicants (assign page)',
        description: `\`assignedTo[0].verified\` is false when the lawyer lost verification or the account (decision 2316). On a job at work, \`payOnComplete\` \`{ lawyerId, name, amount, delivered }\` names whom an admin's Mark as Completed pays now (the present lawyer), how much (naira: what is held for the job less the commission) and whether that lawyer has delivered on the job (after a hand-over the drafts may all be the replaced lawyer's; decision 2322); left out otherwise. ${ADMIN_ONLY}`,
        params: idParam,
        response: { 200: oneJobResponse },
      },
      preHandler: onlyAdmin,
    },
    async (request) => ({
      status: 'success' as const,
      message: 'ok',
      data: { job: await jobsAdmin.one(request.params.id) },
    }),
  );

  app.post(
    '/job-api/assign',
    {
      schema: {
        tags,
        security,
        summary: 'Assign a job to a lawyer',
        description: `\`lawyerId\` is one id, or a list of one (the page's single selection; an empty list is no lawyer chosen, decision 2248). Moves the job from unassigned to pending in one transaction with the job row locked (two admins at once: one assignment, the other gets 409). Refuses an unverified lawyer or one who deleted the account (409), a job already assigned (409, unless its lawyer has lost verification or the account since: a job at work then passes to the new lawyer at its stage, its thread and deliveries kept; a delivery waiting for the company answers 409, decision 2310) or completed (409), a cancelled job (409 "${messages.jobCancelledNoAssign}", decision 2337), an unknown job or lawyer (404). E-mails the lawyer and the company; audit-logged. ${LIFECYCLE} ${ADMIN_ONLY}`,
        body: assignJobBody,
        response: { 200: oneJobResponse },
      },
      preHandler: onlyAdmin,
    },
    async (request) => {
      const job = await jobsAdmin.assign(request.user!.id, request.body.jobId, request.body.lawyerId);
      return { status: 'success' as const, message: messages.jobAssigned, data: { job } };
    },
  );

  app.put(
    '/job-api/completejob/:id',
    {
      schema: {
        tags,
        security,
        summary: 'Mark a pending job completed',
        description: `Pending to completed; the company is e-mailed; audit-logged. What is held for the job goes to the lawyer (less the commission). An optional body \`{ payOnComplete: { lawyerId, amount } }\` is what the admin's confirmation showed (the one-job answer's \`payOnComplete\`): if the job has since passed to another lawyer or the commission changed the amount, 409 names the new payee and amount and nothing is paid (decision 2340); the same admin sending the same \`payOnComplete\` again after the job is completed (a lost answer) gets 200 with the job, nothing done twice, and any other repeat 409 (decision 2357); a \`payOnComplete\` with only one of them, or \`amount\` not a number, answers 400 naming the field; other body fields are ignored. It releases money, so an admin with two-factor on whose session's last code is older than ${TWO_FACTOR.stepUpMinutes} minutes gets ${TWO_FACTOR.stepUpStatus} "${twoFactorMessages.stepUpRequired}" first, as for a cancel (decision 2282). ${LIFECYCLE} ${ADMIN_ONLY}`,
        params: idParam,
        body: z.unknown().optional(),
        response: { 200: oneJobResponse },
      },
      // It releases the company's money to the lawyer: a fresh code, as the admin's cancel asks (decision 2282).
      preHandler: [onlyAdmin, services.twoFactor.requireRecentCode],
    },
    async (request) => {
      const job = await jobsAdmin.complete(request.user!.id, request.params.id, shownOf(request.body));
      return { status: 'success' as const, message: messages.jobCompleted, data: { job } };
    },
  );

  app.put(
    '/job-api/editjobdetails/:id',
    {
      schema: {
        tags,
        security,
        summary: "Set the admin's details on a job",
        description: `\`detail\` (required; empty, or only blanks and invisible characters: 400 "${messages.kindlyAddDetails}") replaces the admin details; \`file\` (a URL answered by POST /api/uploads) and \`fileName\` replace the admin document when given (the thread names one of our uploads by \`/uploads/<key>\`, so it still opens for the job's company and lawyer after it is replaced; decision 2230), otherwise the document stays (empty or null counts as not given, decision 2210). Allowed on unassigned and pending jobs, not on completed ones. Audit-logged. The same details sent again within a minute with nothing in between (a double tap, a retry) are added, told and audited once (decision 2221). ${LIFECYCLE} ${ADMIN_ONLY}`,
        params: idParam,
        body: editJobDetailsBody,
        response: { 200: oneJobResponse },
      },
      preHandler: onlyAdmin,
    },
    async (request) => {
      const job = await jobsAdmin.addDetails(request.user!.id, request.params.id, request.body);
      return { status: 'success' as const, message: messages.editedSuccessfully, data: { job } };
    },
  );
};
