import { and, asc, desc, eq, inArray, lt, sql, type Placeholder, type SQL, type SQLWrapper } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  THREAD_PAGE,
  type JobEventResponse,
  type JobViewResponse,
  type NotificationResponse,
} from '@legalmarket/contracts';
import type { Executor } from '../../db/client.js';
import {
  jobApplications,
  jobCounts,
  jobEvents,
  jobReads,
  jobs,
  notifications,
  products,
  users,
} from '../../db/schema.js';

/** The one shape a job is answered in (`jobView` in contracts), shared by the company, lawyer and admin routes. */
export type JobView = JobViewResponse;

const company = alias(users, 'company');
const lawyer = alias(users, 'lawyer');

const jobViewFields = {
  job: jobs,
  product: {
    id: products.id,
    productName: products.productName,
    productImage: products.productImage,
    productPrice: products.productPrice,
    productDescription: products.productDescription,
  },
  company: {
    id: company.id,
    companyName: company.companyName,
    name: company.name,
    officialEmail: company.officialEmail,
    phoneNumber: company.phoneNumber,
  },
  lawyer: {
    id: lawyer.id,
    name: lawyer.name,
    officialEmail: lawyer.officialEmail,
    phoneNumber: lawyer.phoneNumber,
  },
};

/** Select of jobs joined with product, company and assigned lawyer: one query, no N+1. */
export function selectJobs(ex: Executor) {
  return ex
    .select(jobViewFields)
    .from(jobs)
    .innerJoin(products, eq(products.id, jobs.productId))
    .innerJoin(company, eq(company.id, jobs.companyId))
    .leftJoin(lawyer, eq(lawyer.id, jobs.assignedTo))
    .$dynamic();
}

/** The total of a counted list (jobCount's keys) read beside its page. */
export const countedTotal = (key: 'open' | `status:${JobView['status']}`) =>
  sql<number>`(select ${jobCounts.n} from ${jobCounts} where ${jobCounts.key} = ${key})`;

/** The tables selectJobs reads (what cached job lists depend on, platform/response-cache.ts). */
export const JOB_VIEW_READS = ['jobs', 'products', 'users'] as const;
/** The tables of a paged job list: selectJobs, the applications (applicants, a lawyer's own) and jobCount. */
export const JOB_PAGE_READS = [...JOB_VIEW_READS, 'job_applications', 'job_counts'] as const;
/**
 * The tables of a job's own page: its view, applicants (admins), events with their authors, read marks,
 * and the timers (when a delivered job is accepted automatically, decision 2331).
 */
export const JOB_THREAD_READS = [
  ...JOB_VIEW_READS,
  'job_applications',
  'job_events',
  'job_reads',
  'job_timers',
] as const;
/** The table the notification centre and the bell's count read. */
export const NOTIFICATION_READS = ['notifications'] as const;
/**
 * What the bell's count of `userId` depends on: the notifications of its share of the readers
 * (`notifications@<first two hex digits of the id>`, migration 0037), not the whole table, so a
 * notification to another reader (the admins told of each paid job) leaves this copy good.
 */
export const notificationReadsOf = (userId: string) => [`notifications@${userId.slice(0, 2)}`];
/**
 * The notification centre's page: its entries say whether their job opens for the reader (decision 2332),
 * from the job's company and lawyer. `jobs:changed`, not `jobs`: a new job (a checkout) is in no
 * notification yet (an entry's job exists before it), so only a change to a job's row makes the page
 * again. Whether the reader is an admin is the `admin` placeholder, so no users write makes it again.
 */
export const notificationPageReadsOf = (userId: string) => [...notificationReadsOf(userId), 'jobs:changed'];

type Row = Awaited<ReturnType<ReturnType<typeof selectJobs>['execute']>>[number];

/** `now` decides `late`: the app's clock, as the lists built by the database are given it. */
export function toJobView(r: Row, now: Date): JobView {
  const j = r.job;
  return {
    _id: j.id,
    status: j.status,
    stage: j.stage,
    dueAt: j.dueAt.toISOString(),
    late: j.dueAt.getTime() < now.getTime() && !['completed', 'cancelled'].includes(j.stage),
    productId: {
      _id: r.product.id,
      productName: r.product.productName,
      productImage: r.product.productImage,
      productPrice: r.product.productPrice / 100,
      productDescription: r.product.productDescription,
    },
    companyId: {
      _id: r.company.id,
      companyName: r.company.companyName ?? r.company.name,
      officialEmail: r.company.officialEmail,
      phoneNumber: r.company.phoneNumber,
    },
    quantity: j.quantity,
    amount: j.amount / 100,
    detail: j.detail,
    companyDetail: j.companyDetail,
    companyFile: j.companyFile,
    companyFileName: j.companyFileName,
    lawyerRequestedDetail: j.lawyerRequestedDetail,
    adminDetail: j.adminDetail,
    adminFile: j.adminFile,
    adminFileName: j.adminFileName,
    assignedTo: r.lawyer?.id
      ? [
          {
            _id: r.lawyer.id,
            name: r.lawyer.name,
            officialEmail: r.lawyer.officialEmail,
            phoneNumber: r.lawyer.phoneNumber,
          },
        ]
      : [],
    appliedLawer: [],
    createdAt: j.createdAt.toISOString(),
    updatedAt: j.updatedAt.toISOString(),
    completedAt: j.completedAt?.toISOString() ?? null,
  };
}

/**
 * A job as its company reads it: the assigned lawyer by name, its e-mail and phone left empty
 * (decision 2238). The platform stays the company's contact, as it stays a lawyer's until assignment
 * (decision 0301); the thread and the bell reach the lawyer. jobViewJson's `lawyerContacts` does the same.
 */
export function forCompany<V extends Pick<JobView, 'assignedTo'>>(view: V): V {
  return { ...view, assignedTo: view.assignedTo.map((a) => ({ ...a, officialEmail: '', phoneNumber: '' })) };
}

/**
 * When a response of job views next reads differently with nothing written: the earliest due time
 * after `now` of a job shown not late (a final job's due time only ends its cached copy early). Both
 * writers of the shape, toJobView and jobViewJson, put `dueAt` just before `late`.
 */
export const CACHED_UNTIL_LATE = {
  changesAt(body: string, now: Date): Date | undefined {
    const after = now.toISOString();
    let first: string | undefined;
    for (const m of body.matchAll(/"dueAt"\s*:\s*"([^"]+)"\s*,\s*"late"\s*:\s*false/g))
      if (m[1] > after && (!first || m[1] < first)) first = m[1];
    return first ? new Date(first) : undefined;
  },
};

/** A timestamp as Date.toISOString() writes it (UTC, milliseconds). */
const isoText = (t: SQLWrapper) => sql`to_char(${t} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
/** Kobo to naira as a float8, the same IEEE division as `kobo / 100` in JS, so the JSON numbers match. */
const nairaOf = (kobo: SQLWrapper) => sql`(${kobo}::float8 / 100)`;
const jsonObject = (fields: Record<string, SQLWrapper | string>) =>
  sql`json_build_object(${sql.join(
    Object.entries(fields).map(([k, v]) => sql`${sql.raw(`'${k}'`)}, ${typeof v === 'string' ? sql.raw(v) : v}`),
    sql`, `,
  )})`;

/**
 * What a reader who is not the job's company, lawyer or an admin is shown of an open job (forLawyer in
 * lawyer-service.ts says why): `contacts` hides the company's contacts (admins on the lawyers' list),
 * `files` also the file keys (verified lawyers), `brief` the whole brief and which company it is
 * (unverified lawyers).
 */
export type JobRedaction = 'none' | 'contacts' | 'files' | 'brief';

/**
 * The job view as JSON built by the database, the shape toJobView makes (proven equal by
 * view-json.test.ts): a list crosses from the database as one text value instead of hundreds of
 * fields decoded, mapped and serialised again, which was most of a cold list's cost. `now` decides
 * `late` as toJobView's clock does (the placeholder `now`, an ISO text); `applied` adds the reading
 * lawyer's flag.
 */
export function jobViewJson(opts: {
  redact?: JobRedaction;
  applied?: SQL<boolean>;
  applicants?: SQL;
  /** 'hidden' for a company reader (forCompany), or an SQL boolean that is true when the lawyer's contacts show. */
  lawyerContacts?: 'hidden' | SQL<boolean>;
  /** `assignedTo[0].verified` (admin lists, decision 2333). */
  lawyerVerified?: boolean;
}) {
  const redact = opts.redact ?? 'none';
  const lawyerContact = (col: SQLWrapper) =>
    opts.lawyerContacts === undefined
      ? col
      : opts.lawyerContacts === 'hidden'
        ? "''"
        : sql`case when ${opts.lawyerContacts} then ${col} else '' end`;
  const hideContacts = redact !== 'none';
  const hideFiles = redact === 'files' || redact === 'brief';
  const hideBrief = redact === 'brief';
  const brief = (col: SQLWrapper) => (hideBrief ? 'null' : col);
  const fields: Record<string, SQLWrapper | string> = {
    _id: jobs.id,
    status: jobs.status,
    stage: jobs.stage,
    dueAt: isoText(jobs.dueAt),
    late: sql`(${jobs.dueAt} < ${sql.placeholder('now')}::timestamptz and ${jobs.stage} not in ('completed', 'cancelled'))`,
    productId: jsonObject({
      _id: products.id,
      productName: products.productName,
      productImage: products.productImage,
      productPrice: nairaOf(products.productPrice),
      productDescription: products.productDescription,
    }),
    companyId: jsonObject({
      _id: hideBrief ? "''" : company.id,
      companyName: hideBrief ? "''" : sql`coalesce(${company.companyName}, ${company.name})`,
      officialEmail: hideContacts ? "''" : company.officialEmail,
      phoneNumber: hideContacts ? "''" : company.phoneNumber,
    }),
    quantity: jobs.quantity,
    amount: nairaOf(jobs.amount),
    detail: brief(jobs.detail),
    companyDetail: brief(jobs.companyDetail),
    companyFile: hideFiles ? 'null' : jobs.companyFile,
    companyFileName: brief(jobs.companyFileName),
    lawyerRequestedDetail: brief(jobs.lawyerRequestedDetail),
    adminDetail: brief(jobs.adminDetail),
    adminFile: hideFiles ? 'null' : jobs.adminFile,
    adminFileName: brief(jobs.adminFileName),
    assignedTo: sql`case when ${lawyer.id} is null then '[]'::json else json_build_array(${jsonObject({
      _id: lawyer.id,
      name: lawyer.name,
      officialEmail: lawyerContact(lawyer.officialEmail),
      phoneNumber: lawyerContact(lawyer.phoneNumber),
      // The admin lists say which lawyer lost verification or the account (decision 2333).
      ...(opts.lawyerVerified ? { verified: sql`(${lawyer.verified} and ${lawyer.deletedAt} is null)` } : {}),
    })}) end`,
    appliedLawer: opts.applicants ?? "'[]'::json",
    createdAt: isoText(jobs.createdAt),
    updatedAt: isoText(jobs.updatedAt),
    completedAt: isoText(jobs.completedAt),
  };
  if (opts.applied) fields.applied = opts.applied;
  if (hideBrief) fields.briefWithheld = 'true';
  return jsonObject(fields);
}

/** Whether `lawyerId` applied for the job of the row. */
export const appliedBy = (lawyerId: string | Placeholder) =>
  sql<boolean>`exists (select 1 from ${jobApplications} where ${jobApplications.jobId} = ${jobs.id} and ${jobApplications.lawyerId} = ${lawyerId})`;

interface JsonListOptions {
  order?: SQL[];
  /** `assignedTo[0].verified`: the lawyer is verified and not erased (admin lists, decision 2333). */
  lawyerVerified?: boolean;
  lawyerContacts?: 'hidden' | SQL<boolean>;
  limit?: number | Placeholder;
  offset?: number | Placeholder;
  redact?: JobRedaction;
  applied?: SQL<boolean>;
  applicants?: SQL;
  total?: SQL<number>;
}

/**
 * The statement answering the views of the jobs matching `where` as one JSON array text, in `order`
 * (newest first by default): what findJobViews answers, built by the database. A page (limit, offset)
 * is chosen first by id, so JSON is built for the page's rows only; `total`, when given, is read in the
 * same statement. Built once and prepared by the lists read most (drizzle's prepare): executed with the
 * placeholder `now` and the ones `where` uses.
 */
export function jobViewsJsonQuery(ex: Executor, where: SQL | undefined, opts: JsonListOptions) {
  const order = [...(opts.order ?? []), desc(jobs.createdAt), desc(jobs.id)];
  let rows = where ?? and();
  if (opts.limit !== undefined || opts.offset !== undefined) {
    let page = ex
      .select({ id: jobs.id })
      .from(jobs)
      .innerJoin(products, eq(products.id, jobs.productId))
      .where(rows)
      .orderBy(...order)
      .$dynamic();
    if (opts.limit !== undefined) page = page.limit(opts.limit);
    if (opts.offset !== undefined) page = page.offset(opts.offset);
    rows = inArray(jobs.id, page);
  }
  // Numbered in the list's order, so the array keeps it (json_agg has no order of its own).
  const views = ex
    .select({
      view: sql`${jobViewJson(opts)}`.as('view'),
      n: sql`row_number() over (order by ${sql.join(order, sql`, `)})`.as('n'),
    })
    .from(jobs)
    .innerJoin(products, eq(products.id, jobs.productId))
    .innerJoin(company, eq(company.id, jobs.companyId))
    .leftJoin(lawyer, eq(lawyer.id, jobs.assignedTo))
    .where(rows)
    .as('views');
  return ex
    .select({
      json: sql<string>`coalesce(json_agg(${views.view} order by ${views.n}), '[]')::text`,
      total: (opts.total ?? sql<number>`0`).mapWith(Number),
    })
    .from(views);
}

/** Fills `appliedLawer` for the given views with one extra query. */
export async function withApplicants(ex: Executor, views: JobView[]): Promise<JobView[]> {
  if (!views.length) return views;
  const rows = await ex
    .select({
      jobId: jobApplications.jobId,
      id: users.id,
      name: users.name,
      scn: users.scn,
      verified: users.verified,
      profileImage: users.profileImage,
      createdAt: users.createdAt,
    })
    .from(jobApplications)
    .innerJoin(users, eq(users.id, jobApplications.lawyerId))
    .where(
      inArray(
        jobApplications.jobId,
        views.map((v) => v._id),
      ),
    )
    .orderBy(asc(jobApplications.createdAt), asc(jobApplications.lawyerId));
  const byJob = new Map<string, JobView['appliedLawer']>();
  for (const r of rows) {
    const list = byJob.get(r.jobId) ?? [];
    list.push({
      _id: r.id,
      name: r.name,
      scn: r.scn,
      verified: r.verified,
      profileImage: r.profileImage ? { url: r.profileImage } : null,
      createdAt: r.createdAt.toISOString(),
    });
    byJob.set(r.jobId, list);
  }
  return views.map((v) => ({ ...v, appliedLawer: byJob.get(v._id) ?? [] }));
}

/** Convenience: the views of the jobs matching `where`, newest first. */
export async function findJobViews(
  ex: Executor,
  where: SQL | undefined,
  opts: { now: Date; limit?: number; offset?: number; order?: SQL[] },
) {
  let q = selectJobs(ex)
    .where(where ?? and())
    .orderBy(...(opts.order ?? []), desc(jobs.createdAt), desc(jobs.id));
  if (opts.limit !== undefined) q = q.limit(opts.limit);
  if (opts.offset !== undefined) q = q.offset(opts.offset);
  return (await q).map((r) => toJobView(r, opts.now));
}

/**
 * How many jobs a list holds, read from the counters a trigger keeps (migration 0001_job_counts):
 * `status:unassigned|pending|completed`, or `open` (unassigned with nobody assigned). One row read
 * instead of counting every job of that state, so the lists cost the same with 1,000 or 100,000 jobs.
 */
export async function jobCount(ex: Executor, key: 'open' | `status:${JobView['status']}`): Promise<number> {
  const rows = await ex.select({ n: jobCounts.n }).from(jobCounts).where(eq(jobCounts.key, key)).limit(1);
  return Number(rows[0]?.n ?? 0);
}

const actor = alias(users, 'actor');
const applicant = alias(users, 'applicant');

/** The job's applicants as withApplicants answers them, oldest application first. */
export const applicantsJson = sql`(select coalesce(json_agg(${jsonObject({
  _id: applicant.id,
  name: applicant.name,
  scn: applicant.scn,
  verified: applicant.verified,
  profileImage: sql`case when ${applicant.profileImage} is null then null else json_build_object('url', ${applicant.profileImage}) end`,
  createdAt: isoText(applicant.createdAt),
})} order by ${jobApplications.createdAt}, ${jobApplications.lawyerId}), '[]'::json)
  from ${jobApplications} join ${users} ${sql.raw(`"applicant"`)} on ${applicant.id} = ${jobApplications.lawyerId}
  where ${jobApplications.jobId} = ${jobs.id})`;

/** One event of the thread as the lifecycle's toEvent answers it (who acted, named for the reader). */
/**
 * An event as JSON for a reader who is an admin or not (`admin`, an SQL boolean): who applied is named
 * to admins only (decision 0301); to the job's company and lawyer an application is "A lawyer applied",
 * so the timeline keeps its count of applications and no applicant's name or id.
 */
const eventJson = (admin: SQL) => {
  const hidden = sql`(not ${admin} and ${jobEvents.action} = 'apply')`;
  return jsonObject({
    _id: sql`${jobEvents.id}::text`,
    action: jobEvents.action,
    actor: jsonObject({
      _id: sql`case when ${hidden} then null else ${jobEvents.actorId} end`,
      name: sql`case when ${hidden} then ${APPLICANT_NAME} else case ${jobEvents.actorRole}
        when 'clock' then 'LegalMarket'
        when 'payment' then 'Payment'
        when 'admin' then coalesce(${actor.name}, 'Administrator') || ' (admin)'
        else coalesce(${actor.companyName}, ${actor.name}, 'Former user') end end`,
      role: jobEvents.actorRole,
    }),
    note: jobEvents.note,
    files: jobEvents.files,
    fromStage: jobEvents.fromStage,
    toStage: jobEvents.toStage,
    createdAt: isoText(jobEvents.createdAt),
  });
};

/** How an applicant is named to anyone but an admin. */
export const APPLICANT_NAME = 'A lawyer';

/**
 * The job page's statement (GET /job-api/jobs/:id): the job row, which decides who may read it, and
 * beside it the page's parts built by the database as JSON values the driver parses in one go: the
 * view (with the applicants when `admin`, the lawyer without contacts when `company`), the newest
 * THREAD_PAGE events oldest first, whether older ones remain, and the reader's read mark. One round
 * trip instead of five queries whose hundreds of fields were decoded and mapped one by one.
 * Placeholders: jobId, userId, admin, company, now.
 */
export function jobPageJsonQuery(ex: Executor) {
  const admin = sql`${sql.placeholder('admin')}::boolean`;
  const newest = ex
    .select({ id: jobEvents.id, event: sql`${eventJson(admin)}`.as('event') })
    .from(jobEvents)
    .leftJoin(actor, eq(actor.id, jobEvents.actorId))
    .where(eq(jobEvents.jobId, jobs.id))
    .orderBy(desc(jobEvents.id))
    .limit(THREAD_PAGE)
    .as('newest');
  return ex
    .select({
      job: jobs,
      view: sql<JobView>`${jobViewJson({
        applicants: sql`case when ${admin} then ${applicantsJson} else '[]'::json end`,
        // The job's company reads its lawyer by name only (forCompany).
        lawyerContacts: sql<boolean>`not ${sql.placeholder('company')}::boolean`,
      })}`,
      events: sql<
        JobEventResponse[]
      >`(select coalesce(json_agg(${newest.event} order by ${newest.id}), '[]'::json) from ${newest})`,
      earlier: sql<boolean>`exists (select 1 from ${jobEvents} where ${jobEvents.jobId} = ${jobs.id}
        order by ${jobEvents.id} desc offset ${THREAD_PAGE} limit 1)`,
      lastRead: sql<string>`coalesce((select ${jobReads.lastEventId} from ${jobReads}
        where ${jobReads.jobId} = ${jobs.id} and ${jobReads.userId} = ${sql.placeholder('userId')}), 0)::text`,
    })
    .from(jobs)
    .innerJoin(products, eq(products.id, jobs.productId))
    .innerJoin(company, eq(company.id, jobs.companyId))
    .leftJoin(lawyer, eq(lawyer.id, jobs.assignedTo))
    .where(eq(jobs.id, sql.placeholder('jobId')));
}

/** A page of the notification centre. */
export const NOTIFICATION_PAGE = 20;

/**
 * The notification centre in one statement (it took two): the reader's newest NOTIFICATION_PAGE
 * before the placeholder `before` (a notification id), whether more remain, and the unread count,
 * the entries built as JSON by the database. Placeholders: userId, admin (the reader is one), before.
 */
export function notificationsQuery(ex: Executor) {
  const mine = eq(notifications.userId, sql.placeholder('userId'));
  const page = ex
    .select({
      id: notifications.id,
      n: sql<number>`row_number() over (order by ${notifications.id} desc)`.as('n'),
      // A lawyer the job was passed away from is no party to it now: its page answers them 403, so the
      // entry says so (`jobOpens: false`, left out otherwise) and leads to their projects (decision 2332).
      entry: sql`(${jsonObject({
        _id: sql`${notifications.id}::text`,
        jobId: notifications.jobId,
        action: notifications.action,
        text: notifications.text,
        createdAt: isoText(notifications.createdAt),
        readAt: isoText(notifications.readAt),
      })}::jsonb || case when ${sql.placeholder('admin')}::boolean
          or ${jobs.companyId} = ${sql.placeholder('userId')}
          or ${jobs.assignedTo} = ${sql.placeholder('userId')}
        then '{}'::jsonb else '{"jobOpens": false}'::jsonb end)`.as('entry'),
    })
    .from(notifications)
    .leftJoin(jobs, eq(jobs.id, notifications.jobId))
    .where(and(mine, lt(notifications.id, sql`${sql.placeholder('before')}::bigint`)))
    .orderBy(desc(notifications.id))
    .limit(NOTIFICATION_PAGE + 1)
    .as('page');
  return ex
    .select({
      notifications: sql<NotificationResponse[]>`coalesce(json_agg(${page.entry} order by ${page.id} desc)
        filter (where ${page.n} <= ${NOTIFICATION_PAGE}), '[]'::json)`,
      unread:
        sql<number>`(select count(*) from ${notifications} where ${mine} and ${notifications.readAt} is null)`.mapWith(
          Number,
        ),
      hasMore: sql<boolean>`count(*) > ${NOTIFICATION_PAGE}`,
    })
    .from(page);
}
