import { and, asc, count, desc, eq, inArray, isNull, sql, sum, type Placeholder, type SQL } from 'drizzle-orm';
import { findJobTransition, messages, type JobSort, type LawyerJob } from '@legalmarket/contracts';
import type { Shared } from '../shared.js';
import type { Executor } from '../../db/client.js';
import { lockLiveAccount } from '../../db/locks.js';
import { jobApplications, jobs, products, users } from '../../db/schema.js';
import type { AuthUser } from '../../platform/auth.js';
import { AppError, badRequest, forbidden, notFound } from '../../platform/errors.js';
import { mailRenderer } from '../../platform/mail-templates.js';
import { enqueueMail } from '../../platform/mailer.js';
import {
  appliedBy,
  countedTotal,
  forCompany,
  jobViewsJsonQuery,
  selectJobs,
  toJobView,
  withApplicants,
  type JobRedaction,
  type JobView,
} from './view.js';
import { detailsRequestedMail } from './emails.js';
import type { JobLifecycle } from './lifecycle-service.js';
import type { Ledger } from '../money/ledger.js';

type Deps = Pick<Shared, 'db' | 'clock' | 'config' | 'mailWritten' | 'securityLog'>;

/** A job is open when nobody is assigned and it still waits for a lawyer (spec: Lawyer available jobs). */
const isOpen = and(eq(jobs.status, 'unassigned'), isNull(jobs.assignedTo));

/**
 * What a lawyer may read of a job: everything when it is assigned to that lawyer. Otherwise the
 * company's contact details are withheld (the marketplace, not the lawyer, is the company's contact
 * until an admin assigns the job), other applicants are never shown, and files are named but never
 * keyed: a key is how a document is asked for, and only the assigned lawyer may open it. An
 * unverified lawyer sees the product and amount, not the company's brief (details and files): our
 * privacy policy promises briefs to verified lawyers only (docs/decisions/0860). Nor which company
 * bought it (its name and id, decision 2238): anyone who signs up as a lawyer is unverified, and who
 * buys which legal service is the company's business. Admins see keys.
 */
function forLawyer(view: JobView, viewer: Pick<AuthUser, 'id' | 'userType' | 'verified'>, applied: boolean): LawyerJob {
  const mine = view.assignedTo.some((a) => a._id === viewer.id);
  if (mine) return { ...view, appliedLawer: [], applied };
  const visible: LawyerJob = {
    ...view,
    companyId: { ...view.companyId, officialEmail: '', phoneNumber: '' },
    appliedLawer: [],
    applied,
  };
  if (viewer.userType === 'admin') return visible;
  if (viewer.verified) return { ...visible, companyFile: null, adminFile: null };
  return {
    ...visible,
    companyId: { _id: '', companyName: '', officialEmail: '', phoneNumber: '' },
    detail: null,
    companyDetail: null,
    companyFile: null,
    companyFileName: null,
    lawyerRequestedDetail: null,
    adminDetail: null,
    adminFile: null,
    adminFileName: null,
    briefWithheld: true,
  };
}

/**
 * True when the job's product is in one of the lawyer's areas of practice (read from the lawyer's row,
 * so a change of areas reorders the next page); false for a product without an area.
 */
const bestFitMatch = (lawyerId: string | Placeholder) =>
  // The cast makes the subquery one array value, read once per statement (not once per job).
  sql<boolean>`coalesce(${products.area} = any(cast((select ${users.areasOfPractise} from ${users} where ${users.id} = ${lawyerId}) as text[])), false)`;

/**
 * The only open jobs that can be on a Best fit page of `n` rows (up to the page's end): the first `n` in
 * the lawyer's areas and the first `n` outside them, longest waiting first. Each half is an ordered walk
 * of the open-jobs index that stops at `n`, so the page's sort by fit reads 2n rows, not every open job.
 */
const bestFitCandidates = (lawyerId: Placeholder, n: Placeholder | SQL) => {
  const areas = sql`cast((select ${users.areasOfPractise} from ${users} where ${users.id} = ${lawyerId}) as text[])`;
  const half = (fits: boolean) => sql`(select j.id from ${jobs} j join ${products} p on p.id = j.product_id
    where j.status = 'unassigned' and j.assigned_to is null and coalesce(p.area = any(${areas}), false) = ${fits}
    order by j.created_at, j.id limit ${n})`;
  return sql`${jobs.id} in (${half(true)} union all ${half(false)})`;
};

/** The Best fit walks' bounds written into statements of their own: the first page at 20 (the app's) or 50 rows. */
const BEST_FIT_BOUNDS = [20, 50];

/** What the reader of the open jobs is shown of each (forLawyer): none of them is the reader's own. */
const openJobRedaction = (viewer: Pick<AuthUser, 'userType' | 'verified'>): JobRedaction =>
  viewer.userType === 'admin' ? 'contacts' : viewer.verified ? 'files' : 'brief';

async function appliedSet(ex: Executor, lawyerId: string, jobIds: string[]) {
  if (!jobIds.length) return new Set<string>();
  const rows = await ex
    .select({ jobId: jobApplications.jobId })
    .from(jobApplications)
    .where(and(eq(jobApplications.lawyerId, lawyerId), inArray(jobApplications.jobId, jobIds)));
  return new Set(rows.map((r) => r.jobId));
}

export function createLawyerJobsService(deps: Deps, lifecycle: JobLifecycle, ledger: Ledger) {
  const { db, clock } = deps;
  const render = mailRenderer(deps.config);

  async function lawyerViews(viewer: AuthUser, views: JobView[]) {
    const applied = await appliedSet(
      db,
      viewer.id,
      views.map((v) => v._id),
    );
    return views.map((v) => forLawyer(v, viewer, applied.has(v._id)));
  }

  const lawyerId = sql.placeholder('lawyerId');
  const page = { limit: sql.placeholder('limit'), offset: sql.placeholder('offset'), applied: appliedBy(lawyerId) };
  /**
   * The open jobs' statement of each sort, reader and Best fit bound, built once (the SQL text and, on a
   * server, its plan). A page ending by row 20 or 50 (every first page) walks a bound written into the
   * statement: with `limit $n` there PostgreSQL guessed a tenth of the open jobs, judged its generic plan
   * dear and planned the statement again on every request (1.5-1.9 ms, as long as running it). Walking
   * the first 50 for a page ending at 21 gives the same page: the page's rows are among them.
   */
  const openJobs = new Map<string, ReturnType<typeof prepareOpenJobs>>();
  const prepareOpenJobs = (sort: JobSort, redact: JobRedaction, bound: number | null) =>
    jobViewsJsonQuery(
      db,
      sort === 'recent'
        ? isOpen
        : and(isOpen, bestFitCandidates(lawyerId, bound ? sql.raw(String(bound)) : sql.placeholder('end'))),
      {
        ...page,
        order:
          sort === 'recent'
            ? [desc(jobs.createdAt), desc(jobs.id)]
            : [desc(bestFitMatch(lawyerId)), asc(jobs.createdAt), asc(jobs.id)],
        redact,
        total: countedTotal('open'),
      },
    ).prepare(`open_jobs_${sort}_${redact}${bound ? `_${bound}` : ''}`);
  const openJobsQuery = (sort: JobSort, redact: JobRedaction, end: number) => {
    const bound = sort === 'bestfit' ? (BEST_FIT_BOUNDS.find((b) => end <= b) ?? null) : null;
    const key = `${sort}:${redact}:${bound}`;
    let query = openJobs.get(key);
    if (!query) openJobs.set(key, (query = prepareOpenJobs(sort, redact, bound)));
    return query;
  };
  const projectsQuery = Object.fromEntries(
    (['pending', 'completed'] as const).map((status) => {
      const where = and(eq(jobs.assignedTo, lawyerId), eq(jobs.status, status));
      const order =
        status === 'completed'
          ? [desc(jobs.completedAt), desc(jobs.id)]
          : [desc(jobs.assignedAt), desc(jobs.createdAt), desc(jobs.id)];
      const total = sql<number>`(select count(*) from ${jobs} where ${where})`;
      return [status, jobViewsJsonQuery(db, where, { ...page, order, total }).prepare(`lawyer_${status}_jobs`)];
    }),
  ) as Record<'pending' | 'completed', ReturnType<typeof prepareOpenJobs>>;

  return {
    /**
     * Open jobs, one page. Best fit (decision 2011): jobs whose product's area is one of the lawyer's
     * areas of practice first, then longest waiting first; Recent jobs: newest first.
     */
    async availableJobs(viewer: AuthUser, q: { sort: JobSort; page: number; limit: number }) {
      const offset = (q.page - 1) * q.limit;
      const [row] = await openJobsQuery(q.sort, openJobRedaction(viewer), offset + q.limit).execute({
        lawyerId: viewer.id,
        limit: q.limit,
        offset,
        end: offset + q.limit,
        now: clock.now().toISOString(),
      });
      return row;
    },

    /**
     * One job. Lawyers: an open job or one assigned to them. Admins: any job, with its applicants.
     * Companies: their own jobs. Anything else answers 404, so ids of other people's jobs reveal nothing.
     */
    async oneJob(user: AuthUser, jobId: string) {
      const rows = await selectJobs(db).where(eq(jobs.id, jobId)).limit(1);
      const row = rows[0];
      if (!row) throw notFound(messages.jobNotFound);
      const view = toJobView(row, clock.now());
      if (user.userType === 'admin') return { ...(await withApplicants(db, [view]))[0], applied: false };
      if (user.userType === 'company') {
        if (view.companyId._id !== user.id) throw notFound(messages.jobNotFound);
        return { ...forCompany(view), applied: false };
      }
      const open = view.status === 'unassigned' && view.assignedTo.length === 0;
      const mine = row.job.assignedTo === user.id;
      if (!open && !mine) throw notFound(messages.jobNotFound);
      return (await lawyerViews(user, [view]))[0];
    },

    /** Applies once; a second application changes nothing and answers the same. Unverified lawyers are refused. */
    async apply(user: AuthUser, jobId: string) {
      if (!user.verified) {
        deps.securityLog('job_apply_refused', { actor: user.id, jobId, reason: 'unverified' });
        throw forbidden(messages.unverifiedCannotApply);
      }
      await db.transaction(async (tx) => {
        // Locked as every writer of the job's events locks it: applications then commit in the order
        // of their event ids, so a timeline polled with `after` never skips one that committed late.
        const job = await lifecycle.lock(tx, jobId, messages.jobNotFound);
        // Verified as the row stands under its lock, as the job page's actions ask (decision 2310): a
        // withdrawal that committed after this request's session was read has made that session stale.
        const { verified } = await lockLiveAccount(tx, user.id);
        if (!verified) {
          deps.securityLog('job_apply_refused', { actor: user.id, jobId, reason: 'unverified' });
          throw forbidden(messages.unverifiedCannotApply);
        }
        lifecycle.check(job, 'apply', { ...user, verified });
        const added = await tx
          .insert(jobApplications)
          .values({ jobId, lawyerId: user.id, createdAt: clock.now() })
          .onConflictDoNothing()
          .returning({ jobId: jobApplications.jobId });
        if (added.length) await lifecycle.record(tx, job, 'apply', user, { mail: false });
      });
    },

    /** The lawyer's own jobs of one status, as JSON text with the list's total (all assigned to the reader). */
    async projects(lawyer: AuthUser, status: 'pending' | 'completed', q: { page: number; limit: number }) {
      const [row] = await projectsQuery[status].execute({
        lawyerId: lawyer.id,
        limit: q.limit,
        offset: (q.page - 1) * q.limit,
        now: clock.now().toISOString(),
      });
      return row;
    },

    /**
     * The lawyer's completed work (how many jobs, what companies paid for them) and, from the ledger,
     * its share: available now, pending in the holding period, and per job.
     */
    async earnings(lawyerId: string, before?: number) {
      const [rows, fromLedger, settings] = await Promise.all([
        db
          .select({ n: count(), total: sum(jobs.amount) })
          .from(jobs)
          .where(and(eq(jobs.assignedTo, lawyerId), eq(jobs.status, 'completed'))),
        ledger.lawyerEarnings(lawyerId, before),
        ledger.settings(),
      ]);
      return {
        count: Number(rows[0]?.n ?? 0),
        total: Number(rows[0]?.total ?? 0) / 100,
        ...fromLedger,
        commissionPercent: settings.commissionPercent,
        holdDays: settings.holdDays,
      };
    },

    /** Asks the company for more details on a pending job of this lawyer; the company is e-mailed. */
    async requestDetails(lawyer: AuthUser, jobId: string, detail: string) {
      const text = detail.trim();
      if (!text) throw badRequest(messages.kindlyRequestDetails);
      await db.transaction(async (tx) => {
        const job = await lifecycle.lock(tx, jobId, messages.jobNotFound);
        // Someone else's job, or a completed or cancelled one, answers as it always has: not found. A
        // job of the lawyer's pending list whose delivery awaits the company is there: 409 naming the
        // stage, as the job page answers (decision 2200).
        if (job.assignedTo !== lawyer.id) throw notFound(messages.jobNotFound);
        if (!findJobTransition('request_details', job.stage, 'assigned_lawyer')) {
          if (job.status === 'pending') lifecycle.check(job, 'request_details', lawyer);
          throw notFound(messages.jobNotFound);
        }
        // Verified as the row stands under its lock, as the job page's actions ask (decision 2310).
        lifecycle.check(job, 'request_details', { ...lawyer, ...(await lockLiveAccount(tx, lawyer.id)) });
        // The same request sent again at once: asked and mailed once (2221).
        if (await lifecycle.repeated(tx, job, 'request_details', lawyer.id, text, [])) return;
        await lifecycle.record(tx, job, 'request_details', lawyer, {
          note: text,
          mail: false,
          set: { lawyerRequestedDetail: text },
        });
        const info = await tx
          .select({
            email: users.officialEmail,
            companyName: users.companyName,
            name: users.name,
            productName: products.productName,
          })
          .from(users)
          .innerJoin(products, eq(products.id, job.productId))
          .where(eq(users.id, job.companyId))
          .limit(1);
        const c = info[0];
        if (!c) throw new AppError(500, 'job without company');
        await enqueueMail(
          tx,
          render(
            detailsRequestedMail({
              to: c.email,
              companyName: c.companyName ?? c.name,
              productName: c.productName,
              lawyerName: lawyer.name,
              request: text,
              url: `${deps.config.PUBLIC_URL}/company/dashboard`,
            }),
          ),
        );
      });
      deps.mailWritten();
    },
  };
}
export type LawyerJobsService = ReturnType<typeof createLawyerJobsService>;
