import { and, asc, eq, isNull, lte, or, sql } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Executor } from '../db/client.js';
import { emailOutbox } from '../db/schema.js';
import type { Clock } from './clock.js';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/** Writes mail into the outbox inside the caller's transaction: no change without its mail, no mail without its change. */
export async function enqueueMail(tx: Executor, mail: Mail) {
  await tx.insert(emailOutbox).values(mail);
}

export interface MailWorker {
  /** Sends whatever is due now; answers how many were sent. */
  runOnce(): Promise<number>;
  start(): void;
  /** Asks for a run soon (after a commit that wrote mail); does nothing until started. */
  nudge(): void;
  stop(): Promise<void>;
  readonly enabled: boolean;
}

const BACKOFF_MS = [10_000, 60_000, 5 * 60_000, 30 * 60_000, 2 * 3600_000];
export const MAX_ATTEMPTS = 8;

export function createMailWorker(deps: {
  db: Db;
  smtpUrl?: string;
  from: string;
  clock: Clock;
  log: FastifyBaseLogger;
  pollMs: number;
}): MailWorker {
  const transport = deps.smtpUrl ? nodemailer.createTransport(deps.smtpUrl) : null;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;
  let stopped = false;
  let started = false;

  async function sendDue(): Promise<number> {
    if (!transport) return 0;
    let sent = 0;
    for (;;) {
      // Claim one due mail at a time; SKIP LOCKED lets several instances share the outbox.
      const claimed = await deps.db.transaction(async (tx) => {
        const rows = await tx
          .select()
          .from(emailOutbox)
          .where(
            and(
              isNull(emailOutbox.sentAt),
              // Fresh mail is due at once; a failed one waits for its back-off.
              or(eq(emailOutbox.attempts, 0), lte(emailOutbox.nextAttemptAt, deps.clock.now())),
              sql`${emailOutbox.attempts} < ${MAX_ATTEMPTS}`,
            ),
          )
          .orderBy(asc(emailOutbox.id))
          .limit(1)
          .for('update', { skipLocked: true });
        const mail = rows[0];
        if (!mail) return null;
        try {
          await transport.sendMail({
            from: deps.from,
            to: mail.to,
            subject: mail.subject,
            text: mail.text,
            html: mail.html ?? undefined,
          });
          await tx
            .update(emailOutbox)
            .set({ sentAt: deps.clock.now(), attempts: mail.attempts + 1, lastError: null })
            .where(eq(emailOutbox.id, mail.id));
          return 'sent' as const;
        } catch (err) {
          const delay = BACKOFF_MS[Math.min(mail.attempts, BACKOFF_MS.length - 1)];
          await tx
            .update(emailOutbox)
            .set({
              attempts: mail.attempts + 1,
              lastError: String((err as Error).message).slice(0, 500),
              nextAttemptAt: new Date(deps.clock.now().getTime() + delay),
            })
            .where(eq(emailOutbox.id, mail.id));
          deps.log.warn({ outboxId: mail.id, attempt: mail.attempts + 1 }, 'mail delivery failed, will retry');
          return 'failed' as const;
        }
      });
      if (claimed === null) return sent;
      if (claimed === 'sent') sent += 1;
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
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
      transport?.close();
    },
  };
}
