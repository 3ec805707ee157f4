import { and, asc, eq, isNull, lte, or, sql } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Executor } from '../db/client.js';
import { emailOutbox } from '../db/schema.js';
import type { Clock } from './clock.js';
import { withoutSecrets } from './mail-templates.js';

/**
 * A file to attach, named rather than carried: the outbox keeps this descriptor and the worker asks the
 * renderer for the bytes when it sends, so a receipt is not stored twice (docs/decisions/1720).
 */
export interface MailAttachment {
  /** Which renderer answers it, e.g. `receipt` (an order id) or `credit_note` (a refund id). */
  kind: string;
  id: string;
  filename: string;
}

/** Turns a descriptor into its file; throws when it cannot (the mail then waits and is tried again). */
export type AttachmentRenderer = (a: MailAttachment) => Promise<{ content: Buffer; contentType: string }>;

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  attachments?: MailAttachment[];
}

/**
 * Writes mail into the outbox inside the caller's transaction: no change without its mail, no mail without
 * its change. `at`: the written time of the row the mail is about, which finds it again later (the erasure).
 */
export async function enqueueMail(tx: Executor, mail: Mail, at?: Date) {
  await tx.insert(emailOutbox).values({
    ...mail,
    attachments: mail.attachments?.length ? mail.attachments : null,
    ...(at ? { createdAt: at } : {}),
  });
}

export interface MailWorker {
  /** Sends whatever is due now; answers how many were sent. */
  runOnce(): Promise<number>;
  start(): void;
  /** Asks for a run soon (after a commit that wrote mail); does nothing until started. */
  nudge(): void;
  stop(): Promise<void>;
  /** Where attachments' bytes come from; set once by the app that knows the features (app.ts). */
  renderAttachmentsWith(render: AttachmentRenderer): void;
  readonly enabled: boolean;
}

const BACKOFF_MS = [10_000, 60_000, 5 * 60_000, 30 * 60_000, 2 * 3600_000];
const MAX_ATTEMPTS = 8;
/** Marks a mail claimed by the embedded database's worker while SMTP talks. */
const SENDING = 'sending';
/** A claim older than this is due again even without a restart (SMTP timeouts are far shorter). */
const LEASE_MS = 15 * 60_000;

export function createMailWorker(deps: {
  db: Db;
  smtpUrl?: string;
  from: string;
  clock: Clock;
  log: FastifyBaseLogger;
  pollMs: number;
  /** True on the embedded database: this process is the only one sending (see sendOne). */
  exclusive?: boolean;
}): MailWorker {
  const transport = deps.smtpUrl ? nodemailer.createTransport(deps.smtpUrl) : null;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;
  let stopped = false;
  let started = false;
  let render: AttachmentRenderer | undefined;

  type Row = typeof emailOutbox.$inferSelect;
  const due = (ex: Executor) =>
    ex
      .select()
      .from(emailOutbox)
      .where(
        and(
          isNull(emailOutbox.sentAt),
          or(eq(emailOutbox.attempts, 0), lte(emailOutbox.nextAttemptAt, deps.clock.now())),
          sql`${emailOutbox.attempts} < ${MAX_ATTEMPTS}`,
        ),
      )
      .orderBy(asc(emailOutbox.id))
      .limit(1)
      .for('update', { skipLocked: true });

  /** Hands one mail to SMTP and records the outcome; `attempts` is the count including this one. */
  async function deliver(ex: Executor, mail: Row, attempts: number): Promise<'sent' | 'failed'> {
    try {
      const attachments = [];
      for (const a of mail.attachments ?? []) {
        if (!render) throw new Error(`no renderer for the ${a.kind} attachment`);
        attachments.push({ filename: a.filename, ...(await render(a)) });
      }
      await transport!.sendMail({
        from: deps.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html ?? undefined,
        ...(attachments.length ? { attachments } : {}),
      });
      // Sent: the outbox keeps the mail without its codes and link tokens (decision 2233).
      await ex
        .update(emailOutbox)
        .set({ sentAt: deps.clock.now(), attempts, lastError: null, ...withoutSecrets(mail) })
        .where(eq(emailOutbox.id, mail.id));
      return 'sent';
    } catch (err) {
      const delay = BACKOFF_MS[Math.min(attempts - 1, BACKOFF_MS.length - 1)];
      await ex
        .update(emailOutbox)
        .set({
          attempts,
          lastError: String((err as Error).message).slice(0, 500),
          nextAttemptAt: new Date(deps.clock.now().getTime() + delay),
        })
        .where(eq(emailOutbox.id, mail.id));
      deps.log.warn({ outboxId: mail.id, attempt: attempts }, 'mail delivery failed, will retry');
      return 'failed';
    }
  }

  /**
   * PostgreSQL server: the row stays locked (SKIP LOCKED for the other instances) while SMTP talks, so
   * a crash rolls the claim back and the mail is due again at once. The embedded database has a single
   * connection that this would hold for the whole SMTP conversation, stalling every request (found by
   * test/reliability/crash.test.ts); there the mail is claimed in a short transaction, sent outside
   * it, and claims left by a killed process are released when the next one starts (one process per
   * data directory, see server.pid).
   */
  async function sendOne(): Promise<'sent' | 'failed' | null> {
    if (!deps.exclusive)
      return deps.db.transaction(async (tx) => {
        const [mail] = await due(tx);
        return mail ? deliver(tx, mail, mail.attempts + 1) : null;
      });
    const mail = await deps.db.transaction(async (tx) => {
      const [row] = await due(tx);
      if (row)
        await tx
          .update(emailOutbox)
          .set({
            attempts: row.attempts + 1,
            lastError: SENDING,
            nextAttemptAt: new Date(deps.clock.now().getTime() + LEASE_MS),
          })
          .where(eq(emailOutbox.id, row.id));
      return row;
    });
    return mail ? deliver(deps.db, mail, mail.attempts + 1) : null;
  }

  let released = false;
  async function sendDue(): Promise<number> {
    if (!transport) return 0;
    if (deps.exclusive && !released) {
      await deps.db
        .update(emailOutbox)
        .set({ nextAttemptAt: deps.clock.now(), lastError: 'interrupted by a restart' })
        .where(and(isNull(emailOutbox.sentAt), eq(emailOutbox.lastError, SENDING)));
      released = true;
    }
    let sent = 0;
    for (;;) {
      const outcome = await sendOne();
      if (outcome === null) return sent;
      if (outcome === 'sent') sent += 1;
      else return sent; // SMTP trouble: wait for the next poll instead of spinning
    }
  }

  const runOnce = () => {
    running ??= sendDue().finally(() => {
      running = undefined;
    });
    return running;
  };

  const schedule = (ms: number) => {
    if (stopped || !started || !transport) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      runOnce()
        .catch((err) => deps.log.error({ err }, 'mail worker run failed'))
        .finally(() => schedule(deps.pollMs));
    }, ms);
    timer.unref();
  };

  return {
    enabled: Boolean(transport),
    runOnce,
    start: () => {
      started = true;
      schedule(0);
    },
    nudge: () => schedule(0),
    renderAttachmentsWith: (r) => {
      render = r;
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
      transport?.close();
    },
  };
}
