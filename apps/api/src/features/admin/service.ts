import { and, count, desc, eq, gte, ilike, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import { messages, type AuditEntry, type ORDER_STATUSES, type SettlementAccountInput } from '@legalmarket/contracts';
import type { Shared } from '../shared.js';
import type { Executor } from '../../db/client.js';
import { appSettings, auditLog, jobs, orders, reviews, users } from '../../db/schema.js';
import { lockSetting } from '../../db/locks.js';
import { recordAudit } from '../../platform/audit.js';
import { conflict, notFound } from '../../platform/errors.js';
import { mailRenderer } from '../../platform/mail-templates.js';
import { enqueueMail } from '../../platform/mailer.js';
import { toCompanyProfile, toLawyerProfile } from '../profiles/mapper.js';
import { lawyerRejectedMail, lawyerUnverifiedMail, lawyerVerifiedMail } from './emails.js';

export interface Paging {
  page: number;
  limit: number;
}
const offsetOf = (p: Paging) => (p.page - 1) * p.limit;

export interface AuditFilters {
  actor?: string;
  action?: string;
  targetType?: string;
  targetId?: string;
  from?: string;
  to?: string;
}

const SETTLEMENT_KEY = 'settlement_account';
interface StoredAccount {
  accountNumber: string;
  accountName: string;
  bank: string;
}
/** Audit details never keep a whole account number. */
const masked = (a: StoredAccount | null) =>
  a ? { accountNumber: `******${a.accountNumber.slice(-4)}`, accountName: a.accountName, bank: a.bank } : null;

const dayStart = (d: string) => new Date(`${d}T00:00:00Z`);
const nextDay = (d: string) => new Date(dayStart(d).getTime() + 86_400_000);

export function createAdminService(shared: Shared) {
  const { db, clock } = shared;
  const render = mailRenderer(shared.config);
  /**
   * A page and its total read from one snapshot: read apart, a row written between the reads (a lawyer
   * verified, an order paid) made `total` disagree with the rows answered.
   */
  const snapshot = <T>(read: (ex: Executor) => Promise<T>) =>
    db.transaction(read, { isolationLevel: 'repeatable read', accessMode: 'read only' });

  function pageOfUsers(where: SQL, p: Paging) {
    return snapshot(async (ex) => {
      const [rows, [{ n }]] = await Promise.all([
        ex
          .select()
          .from(users)
          .where(where)
          .orderBy(desc(users.createdAt), desc(users.id))
          .limit(p.limit)
          .offset(offsetOf(p)),
        ex.select({ n: count() }).from(users).where(where),
      ]);
      return { rows, total: Number(n) };
    });
  }

  /** The audit page's filters (decision 2021); every one narrows, all optional. */
  function auditWhere(f: AuditFilters): SQL | undefined {
    const actor = f.actor?.trim();
    const like = actor && `%${actor.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    return and(
      actor
        ? /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(actor)
          ? eq(auditLog.actorId, actor)
          : or(ilike(users.officialEmail, like!), ilike(users.name, like!))
        : undefined,
      f.action ? eq(auditLog.action, f.action) : undefined,
      f.targetType ? eq(auditLog.targetType, f.targetType) : undefined,
      f.targetId?.trim() ? eq(auditLog.targetId, f.targetId.trim()) : undefined,
      f.from ? gte(auditLog.createdAt, dayStart(f.from)) : undefined,
      f.to ? lt(auditLog.createdAt, nextDay(f.to)) : undefined,
    );
  }

  async function auditEntries(
    ex: Executor,
    p: Paging,
    f: AuditFilters = {},
  ): Promise<{ entries: AuditEntry[]; total: number }> {
    const where = auditWhere(f);
    const [rows, [{ n }]] = await Promise.all([
      ex
        .select({ entry: auditLog, actor: { id: users.id, name: users.name, officialEmail: users.officialEmail } })
        .from(auditLog)
        .leftJoin(users, eq(users.id, auditLog.actorId))
        .where(where)
        .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
        .limit(p.limit)
        .offset(offsetOf(p)),
      f.actor?.trim()
        ? ex.select({ n: count() }).from(auditLog).leftJoin(users, eq(users.id, auditLog.actorId)).where(where)
        : ex.select({ n: count() }).from(auditLog).where(where),
    ]);
    return {
      total: Number(n),
      entries: rows.map(({ entry, actor }) => ({
        _id: String(entry.id),
        action: entry.action,
        targetType: entry.targetType,
        targetId: entry.targetId,
        details: (entry.details as Record<string, unknown> | null) ?? null,
        actor: actor?.id ? { _id: actor.id, name: actor.name, officialEmail: actor.officialEmail } : null,
        createdAt: entry.createdAt.toISOString(),
      })),
    };
  }

  return {
    dashboard: () =>
      snapshot(async (ex) => {
        const countWhere = async (table: typeof jobs | typeof users | typeof orders | typeof reviews, where?: SQL) => {
          const [{ n }] = await ex.select({ n: count() }).from(table).where(where);
          return Number(n);
        };
        const [openJobs, pendingJobs, completedJobs, unverifiedLawyers, verifiedLawyers, companies, payments, revs] =
          await Promise.all([
            countWhere(jobs, eq(jobs.status, 'unassigned')),
            countWhere(jobs, eq(jobs.status, 'pending')),
            countWhere(jobs, eq(jobs.status, 'completed')),
            countWhere(users, and(eq(users.userType, 'lawyer'), eq(users.verified, false))),
            countWhere(users, and(eq(users.userType, 'lawyer'), eq(users.verified, true))),
            countWhere(users, eq(users.userType, 'company')),
            countWhere(orders, eq(orders.status, 'paid')),
            countWhere(reviews),
          ]);
        const { entries } = await auditEntries(ex, { page: 1, limit: 8 });
        return {
          counts: {
            openJobs,
            pendingJobs,
            completedJobs,
            unverifiedLawyers,
            verifiedLawyers,
            companies,
            payments,
            reviews: revs,
          },
          recentActivity: entries,
        };
      }),

    auditLog: (q: Paging & AuditFilters) => snapshot((ex) => auditEntries(ex, q, q)),

    async companies(p: Paging) {
      const { rows, total } = await pageOfUsers(eq(users.userType, 'company'), p);
      return { items: rows.map(toCompanyProfile), total };
    },

    async lawyers(verified: boolean, p: Paging) {
      const { rows, total } = await pageOfUsers(and(eq(users.userType, 'lawyer'), eq(users.verified, verified))!, p);
      return { items: rows.map(toLawyerProfile), total };
    },

    /**
     * Sets a lawyer's verification. Verifying e-mails the lawyer; withdrawing it also logs the
     * lawyer out everywhere (docs/decisions/0401). Repeating the same call changes nothing, sends
     * nothing and records nothing.
     */
    async setVerified(actorId: string, lawyerId: string, verified: boolean) {
      const now = clock.now();
      const result = await db.transaction(async (tx) => {
        const rows = await tx
          .select()
          .from(users)
          // An erased lawyer is gone: verifying one would make "Deleted user" assignable (decision 2030).
          .where(and(eq(users.id, lawyerId), eq(users.userType, 'lawyer'), isNull(users.deletedAt)))
          .for('update');
        const lawyer = rows[0];
        if (!lawyer) throw notFound(messages.lawyerNotFound);
        if (lawyer.verified === verified) return { lawyer, changed: false };
        const [updated] = await tx
          .update(users)
          // A verification ends a standing refusal (decision 1860); a withdrawal finds none to keep.
          .set({ verified, verificationRejectedAt: null, verificationRejectionReason: null, updatedAt: now })
          .where(eq(users.id, lawyerId))
          .returning();
        if (verified) {
          await enqueueMail(
            tx,
            render(
              lawyerVerifiedMail(
                lawyer.officialEmail,
                lawyer.name,
                `${shared.config.PUBLIC_URL}/lawyer/available-jobs/${lawyer.id}`,
              ),
            ),
          );
        } else {
          await shared.auth.revokeAllSessions(tx, lawyer.id);
          await enqueueMail(
            tx,
            render(lawyerUnverifiedMail(lawyer.officialEmail, lawyer.name, shared.config.SUPPORT_EMAIL)),
          );
        }
        await recordAudit(tx, {
          actorId,
          action: verified ? 'lawyer.verify' : 'lawyer.unverify',
          targetType: 'lawyer',
          targetId: lawyer.id,
          details: { name: lawyer.name, officialEmail: lawyer.officialEmail },
        });
        return { lawyer: updated, changed: true };
      });
      if (result.changed) shared.mailWritten();
      return { lawyer: toLawyerProfile(result.lawyer), changed: result.changed };
    },

    /**
     * Refuses an unverified lawyer's verification for a reason the lawyer is e-mailed, and keeps it on the
     * lawyer's row until the lawyer changes the profile or is verified (decision 1860). Under the lawyer's
     * row lock: a verified lawyer is refused (withdraw instead), and the reason that already stands (a
     * double tap, a retry) is recorded and mailed once.
     */
    async rejectVerification(actorId: string, lawyerId: string, reason: string) {
      const now = clock.now();
      const result = await db.transaction(async (tx) => {
        const rows = await tx
          .select()
          .from(users)
          .where(and(eq(users.id, lawyerId), eq(users.userType, 'lawyer'), isNull(users.deletedAt)))
          .for('update');
        const lawyer = rows[0];
        if (!lawyer) throw notFound(messages.lawyerNotFound);
        if (lawyer.verified) throw conflict(messages.rejectVerifiedLawyer);
        if (lawyer.verificationRejectedAt && lawyer.verificationRejectionReason === reason)
          return { lawyer, changed: false };
        const [updated] = await tx
          .update(users)
          .set({ verificationRejectedAt: now, verificationRejectionReason: reason, updatedAt: now })
          .where(eq(users.id, lawyerId))
          .returning();
        await enqueueMail(
          tx,
          render(
            lawyerRejectedMail(
              lawyer.officialEmail,
              lawyer.name,
              reason,
              `${shared.config.PUBLIC_URL}/lawyer/profile/${lawyer.id}`,
              shared.config.SUPPORT_EMAIL,
            ),
          ),
        );
        await recordAudit(tx, {
          actorId,
          action: 'lawyer.reject',
          targetType: 'lawyer',
          targetId: lawyer.id,
          details: { name: lawyer.name, officialEmail: lawyer.officialEmail, reason },
        });
        return { lawyer: updated, changed: true };
      });
      if (result.changed) shared.mailWritten();
      return { lawyer: toLawyerProfile(result.lawyer), changed: result.changed };
    },

    async payments(q: Paging & { from?: string; to?: string; status?: (typeof ORDER_STATUSES)[number] }) {
      const period = and(
        q.from ? gte(orders.createdAt, dayStart(q.from)) : undefined,
        q.to ? lt(orders.createdAt, nextDay(q.to)) : undefined,
      );
      const where = and(period, q.status ? eq(orders.status, q.status) : undefined);
      const [rows, [{ n }], sums] = await snapshot((ex) =>
        Promise.all([
          ex
            .select({
              order: orders,
              company: { id: users.id, name: users.name, companyName: users.companyName, email: users.officialEmail },
            })
            .from(orders)
            .innerJoin(users, eq(users.id, orders.companyId))
            .where(where)
            .orderBy(desc(orders.createdAt), desc(orders.id))
            .limit(q.limit)
            .offset(offsetOf(q)),
          ex.select({ n: count() }).from(orders).where(where),
          ex
            .select({
              status: orders.status,
              n: count(),
              amount: sql<string>`coalesce(sum(${orders.amount}), 0)`,
            })
            .from(orders)
            .where(period)
            .groupBy(orders.status),
        ]),
      );
      const totals = {
        paid: { count: 0, amount: 0 },
        pending: { count: 0, amount: 0 },
        failed: { count: 0, amount: 0 },
        expired: { count: 0, amount: 0 },
        replaced: { count: 0, amount: 0 },
      };
      for (const s of sums) totals[s.status] = { count: Number(s.n), amount: Number(s.amount) / 100 };
      return {
        total: Number(n),
        totals,
        items: rows.map(({ order: o, company: c }) => ({
          _id: o.id,
          reference: o.txRef,
          provider: o.provider,
          providerTransactionId: o.providerTransactionId,
          title: o.title,
          amount: o.amount / 100,
          currency: o.currency,
          status: o.status,
          company: { _id: c.id, companyName: c.companyName ?? c.name, officialEmail: c.email },
          createdAt: o.createdAt.toISOString(),
          paidAt: o.paidAt?.toISOString() ?? null,
        })),
      };
    },

    async settlementAccount() {
      const rows = await db.select().from(appSettings).where(eq(appSettings.key, SETTLEMENT_KEY)).limit(1);
      const row = rows[0];
      if (!row) return null;
      const v = row.value as StoredAccount;
      return { ...v, updatedAt: row.updatedAt.toISOString() };
    },

    /** Saves the platform's settlement account and records who changed what (number masked). */
    async saveSettlementAccount(actorId: string, input: Required<SettlementAccountInput>) {
      const now = clock.now();
      const value: StoredAccount = {
        accountNumber: input.accountNumber,
        accountName: input.accountName,
        bank: input.bank,
      };
      await db.transaction(async (tx) => {
        await lockSetting(tx, SETTLEMENT_KEY);
        const before = await tx.select().from(appSettings).where(eq(appSettings.key, SETTLEMENT_KEY));
        const old = (before[0]?.value as StoredAccount | undefined) ?? null;
        const same =
          old &&
          old.accountNumber === value.accountNumber &&
          old.accountName === value.accountName &&
          old.bank === value.bank;
        if (same) return;
        await tx
          .insert(appSettings)
          .values({ key: SETTLEMENT_KEY, value, updatedAt: now })
          .onConflictDoUpdate({ target: appSettings.key, set: { value, updatedAt: now } });
        await recordAudit(tx, {
          actorId,
          action: 'settlement.update',
          targetType: 'settings',
          targetId: SETTLEMENT_KEY,
          details: { before: masked(old), after: masked(value) },
        });
      });
      return this.settlementAccount();
    },
  };
}
export type AdminService = ReturnType<typeof createAdminService>;
