import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  JOB_PAGE_ACTIONS,
  MAX_EVENT_FILES,
  MAX_MESSAGE_LENGTH,
  MAX_MESSAGE_UNITS,
  messages,
  THREAD_PAGE,
  EVENTS_AFTER_MAX,
  holiday,
  holidaysResponse,
  idParam,
  jobActionRequest,
  jobEventsResponse,
  jobPageResponse,
  jobReadRequest,
  notificationsResponse,
  readNotificationsRequest,
  TWO_FACTOR,
  twoFactorMessages,
  unreadNotificationsResponse,
} from '@legalmarket/contracts';
import type { FeatureOptions } from '../shared.js';
import { sendJson } from '../../platform/response-cache.js';
import { JOB_THREAD_READS, notificationPageReadsOf, notificationReadsOf, CACHED_UNTIL_LATE } from './view.js';

const tags = ['job workspace'];
const security = [{ bearer: [] }];

const ok = z.object({ status: z.literal('success') });

/** The job page, its thread and timeline, the notification centre and the holidays (issue 16). */
export const jobWorkspaceRoutes: FastifyPluginAsyncZod<FeatureOptions> = async (app, { shared, services }) => {
  const lifecycle = services.jobLifecycle;
  const { auth } = shared;
  const party = auth.require('company', 'lawyer', 'admin');
  /**
   * An admin's cancel refunds what is held for the job and Mark as Completed releases it to the lawyer:
   * both ask for a fresh authenticator code as other money actions do (decisions 2020 and 2282).
   */
  const moneyStepUp = async (request: FastifyRequest) => {
    const { action } = request.params as { action?: string };
    if ((action === 'cancel' || action === 'complete') && request.user?.userType === 'admin')
      await services.twoFactor.requireRecentCode(request);
  };

  app.get(
    '/job-api/jobs/:id',
    {
      schema: {
        tags,
        summary: 'The job page: the job, its timeline and thread, and what the reader may do now',
        description: `For the job's company, its assigned lawyer and admins (anyone else 403, an unknown job 404). The company reads its lawyer by name: \`job.assignedTo\`'s e-mail and phone are empty for it (decision 2238). \`actions\` are the lifecycle table's actions this reader may take now (packages/contracts/src/job-lifecycle.ts). \`events\` are the newest ${THREAD_PAGE}, oldest first, and \`earlier\` says older ones remain (GET …/events?before=); those after \`lastReadEventId\` are unread for this reader. \`deliveries\` counts the deliveries so far: an acceptance or a request for changes sends back the one read as \`delivery\` (decision 2258). \`autoAcceptAt\`: while the job is delivered, when the clock accepts the work unless the company answers first (its auto_accept timer, five Nigerian working days after the latest delivery in Lagos time, public holidays skipped), otherwise null (decision 2331). Cached per job and reader until a table it reads is written or the job turns late (its due time).`,
        params: idParam,
        response: { 200: jobPageResponse },
        security,
      },
      preHandler: party,
    },
    (request, reply) =>
      shared.responses.send(
        request,
        reply,
        JOB_THREAD_READS,
        async () => ({ json: await lifecycle.page(request.user!, request.params.id) }),
        jobPageResponse,
        CACHED_UNTIL_LATE,
      ),
  );

  app.get(
    '/job-api/jobs/:id/events',
    {
      schema: {
        tags,
        summary: 'What happened on a job since an event (the open page polls this), or the events before one',
        description: `\`after\` (an event id; 0 for the first): the events after it, oldest first, at most ${EVENTS_AFTER_MAX} with \`later\` true when newer ones remain (ask again after the last), one indexed read when nothing happened; correct across instances because it reads the database. \`before\` (an event id, instead of \`after\`): the ${THREAD_PAGE} events before it, with \`earlier\` true when older ones remain (the page's "Show earlier" button). Both answer the stage, the actions allowed now and \`deliveries\` (how many times the work was delivered).`,
        params: idParam,
        querystring: z
          .object({
            after: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
            before: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional(),
          })
          .refine((q) => q.after === undefined || q.before === undefined, 'Send after or before, not both'),
        response: { 200: jobEventsResponse },
        security,
      },
      preHandler: party,
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const { after, before } = request.query;
      return lifecycle.eventsSince(
        request.user!,
        request.params.id,
        before === undefined ? { after: after ?? 0 } : { before },
      );
    },
  );

  app.post(
    '/job-api/jobs/:id/actions/:action',
    {
      schema: {
        tags,
        summary: 'Take a lifecycle action on a job: message, deliver, request changes, accept, cancel, ...',
        description: `Body \`{ note?, files?, key?, refund?, delivery?, payOnComplete? }\`: \`key\` (8-64 letters, digits, - or _), a fresh one per action the client means to take once: the same action sent again with it is not taken again and answers the job page (sent again with another note or other documents: 422; a \`cancel\` sent again with another \`refund\` than the one it made: 422 naming it); \`note\` up to ${MAX_MESSAGE_LENGTH} characters as a reader counts them (an emoji or a letter with its marks is one; at most ${MAX_MESSAGE_UNITS} UTF-16 units), else 400 "${messages.messageTooLong}" (decision 2336; a message and a request for changes need one), \`files\` up to ${MAX_EVENT_FILES} documents uploaded first with POST /api/upload ({ url, name }; only your own uploads, each once: the same document twice answers 400). Deliveries need at least one document. \`accept\` and \`request_changes\` take \`delivery\`, the page's \`deliveries\` the reader saw: when the lawyer has delivered again since, 409 and nothing is taken (decision 2258); a delivery not made yet 400; on another action 400. An admin's \`complete\` takes \`payOnComplete\` \`{ lawyerId, amount }\`, what its confirmation showed (the one-job answer's \`payOnComplete\`): checked as PUT /job-api/completejob/:id checks it, 409 naming the new payee and amount and nothing paid when the job has since passed to another lawyer or the commission changed (decision 2340); on another action 400. An admin's \`cancel\` takes \`refund\` (naira, default: everything held for the job): it is refunded to the company through the provider (sent after the cancellation commits; one left unsent by an outage or refused is sent again by the background job, decision 2284), and what is not refunded is kept by the platform; a refund above what is held answers 400, and one in fractions of a kobo (more than 2 decimals) 400 "refund must be in whole kobo (at most 2 decimals)". A job a monthly plan's credit opened (\`planCredit\` on the job page) paid no money: its cancel takes no refund (one above 0 answers 400), and the credit goes back to the company's plan when the plan month it was used in is still the plan's and the plan is active or in grace; otherwise the credit had expired with its month and its value stays with the platform (decision 1900). An admin's \`cancel\` and \`complete\` move what is held for the job (to the company, to the lawyer): with two-factor on and this session's last code older than ${TWO_FACTOR.stepUpMinutes} minutes they answer ${TWO_FACTOR.stepUpStatus} "${twoFactorMessages.stepUpRequired}" first (decisions 2020 and 2282). 403 for someone not party to the job or not allowed this action, 409 when the job's stage does not allow it now (the message names the stage). Answers the job page.`,
        params: idParam.extend({ action: z.enum(JOB_PAGE_ACTIONS, 'Unknown action') }),
        body: jobActionRequest,
        response: { 200: jobPageResponse },
        security,
      },
      preHandler: [party, moneyStepUp],
    },
    async (request, reply) =>
      sendJson(
        reply,
        await lifecycle.act(request.user!, request.params.id, request.params.action, {
          note: request.body?.note,
          files: request.body?.files,
          refund: request.body?.refund,
          key: request.body?.key,
          delivery: request.body?.delivery,
          payOnComplete: request.body?.payOnComplete,
        }),
      ),
  );

  app.post(
    '/job-api/jobs/:id/read',
    {
      schema: {
        tags,
        summary: "Mark a job's thread read up to an event",
        description: "Also marks this reader's notifications of that job up to the event read.",
        params: idParam,
        body: jobReadRequest,
        response: { 200: ok },
        security,
      },
      preHandler: party,
    },
    async (request) => {
      await lifecycle.markRead(request.user!, request.params.id, Number(request.body.lastEventId));
      return { status: 'success' as const };
    },
  );

  app.get(
    '/api/notifications',
    {
      schema: {
        tags,
        summary: 'The notification centre: newest first, 20 a page',
        description:
          'Pass `before` (a notification id) for the next page. `jobOpens` says whether the job page opens for the reader: false for a lawyer the job was passed away from (it answers them 403), whose entry the web links to their projects (decision 2332). Cached per reader until any notification is written or read, or a job already made is changed or removed (a new job is in no notification yet; writes to users do not count).',
        querystring: z.object({ before: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional() }),
        response: { 200: notificationsResponse },
        security,
      },
      preHandler: party,
    },
    (request, reply) =>
      shared.responses.send(
        request,
        reply,
        notificationPageReadsOf(request.user!.id),
        async () => ({
          value: await lifecycle.notifications(request.user!, request.query.before),
          headers: { 'cache-control': 'no-store' },
        }),
        notificationsResponse,
      ),
  );

  app.get(
    '/api/notifications/unread',
    {
      schema: {
        tags,
        summary: "The bell's count of unread notifications",
        response: { 200: unreadNotificationsResponse },
        security,
      },
      preHandler: party,
    },
    (request, reply) =>
      shared.responses.send(
        request,
        reply,
        notificationReadsOf(request.user!.id),
        async () => ({
          value: { unread: await lifecycle.unread(request.user!) },
          headers: { 'cache-control': 'no-store' },
        }),
        unreadNotificationsResponse,
      ),
  );

  app.post(
    '/api/notifications/read',
    {
      schema: {
        tags,
        summary: 'Mark notifications read',
        description:
          'Body `{ ids: [...] }` (1 to 500 ids): exactly those; "Mark all as read" sends the unread entries its list shows, so a notification the reader was never shown stays unread, even one that took a lower id and was committed after the list was read (decision 2279). `{ all: true }`: every one. `{ all: true, upTo }` (decision 2259, kept for clients that send it): those with an id up to it, which is not commit order on PostgreSQL: it can mark one the reader was never shown. Answers the unread count.',
        body: readNotificationsRequest,
        response: { 200: unreadNotificationsResponse },
        security,
      },
      preHandler: party,
    },
    (request) =>
      lifecycle.readNotifications(
        request.user!,
        'all' in request.body
          ? { upTo: request.body.upTo === undefined ? undefined : Number(request.body.upTo) }
          : request.body.ids.map(Number),
      ),
  );

  const onlyAdmin = auth.require('admin');

  app.get(
    '/api/admin/holidays',
    {
      schema: {
        tags,
        summary: 'Public holidays that working days skip (due dates, reminders, automatic acceptance)',
        response: { 200: holidaysResponse },
        security,
      },
      preHandler: onlyAdmin,
    },
    async () => ({ holidays: await services.jobsAdmin.holidays() }),
  );

  app.post(
    '/api/admin/holidays',
    {
      schema: {
        tags,
        summary: 'Add (or rename) a public holiday',
        description:
          "Body `{ date: \"YYYY-MM-DD\", name }`. Due dates already set do not move. A new day off puts each delivered job's pending automatic acceptance and company reminder off at once when it falls in their working days (the job page's `autoAcceptAt` moves; decisions 2331 and 2335); removing a holiday never brings the acceptance forward. Adding or removing one counts the company's and the lawyer's due-soon reminders again (decision 2356).",
        body: holiday,
        response: { 200: holidaysResponse },
        security,
      },
      preHandler: onlyAdmin,
    },
    async (request) => ({ holidays: await services.jobsAdmin.saveHoliday(request.user!.id, request.body) }),
  );

  app.delete(
    '/api/admin/holidays/:date',
    {
      schema: {
        tags,
        summary: 'Remove a public holiday',
        description:
          'The pending reminders counted over the day are counted again; an automatic acceptance stays where it was named (decision 2356).',
        params: z.object({ date: holiday.shape.date }),
        response: { 200: holidaysResponse },
        security,
      },
      preHandler: onlyAdmin,
    },
    async (request) => ({ holidays: await services.jobsAdmin.deleteHoliday(request.user!.id, request.params.date) }),
  );

  if (shared.config.NODE_ENV !== 'production') {
    app.post(
      '/dev/scheduler/tick',
      {
        schema: {
          tags: ['platform'],
          summary: "Development only: run the job scheduler as if it were some days later (the clock's transitions)",
          body: z.object({ days: z.number().min(0).max(60).default(0) }).optional(),
          response: { 200: z.object({ fired: z.number() }) },
        },
      },
      async (request) => {
        const days = request.body?.days ?? 0;
        return { fired: await lifecycle.tick(new Date(shared.clock.now().getTime() + days * 86_400_000)) };
      },
    );
  }
};
