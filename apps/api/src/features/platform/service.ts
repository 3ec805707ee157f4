import { desc, eq } from 'drizzle-orm';
import type { Shared } from '../shared.js';
import { emailOutbox } from '../../db/schema.js';
import { recordAudit } from '../../platform/audit.js';
import { AppError, badRequest } from '../../platform/errors.js';
import { detectFile } from '../uploads/service.js';

type Deps = Pick<Shared, 'db' | 'storage' | 'config'>;

/** The database check, the Remuneration Order file and the development mailbox. */
export function createPlatformService({ db, storage, config }: Deps) {
  return {
    /** Throws when the database does not answer a read. */
    async checkDatabase() {
      await db.select({ id: emailOutbox.id }).from(emailOutbox).limit(1);
    },

    remunerationOrder: () => storage.get(config.REMUNERATION_ORDER_KEY),

    /** Checks the bytes are a sound PDF, then stores it; the audit row commits only once the file is stored. */
    async replaceRemunerationOrder(actorId: string, body: Buffer) {
      // The upload service's checks: the type from the bytes, then the structure (cut short, hidden archive).
      const detected = await detectFile(body, 'document', 'remuneration-order.pdf').catch((err: unknown) => {
        if (err instanceof AppError && err.statusCode === 422) throw err;
        throw badRequest('The file must be a PDF');
      });
      if (detected.ext !== 'pdf') throw badRequest('The file must be a PDF');
      const previous = await storage.get(config.REMUNERATION_ORDER_KEY);
      previous?.stream.destroy();
      await db.transaction(async (tx) => {
        await recordAudit(tx, {
          actorId,
          action: 'remuneration_order.upload',
          targetType: 'remuneration_order',
          details: { size: body.length, replaced: previous !== null },
        });
        await storage.put(config.REMUNERATION_ORDER_KEY, body);
      });
    },

    /** The newest 100 mails in the outbox, for one address when given. */
    async mailbox(to: string | undefined) {
      const rows = await db
        .select()
        .from(emailOutbox)
        .where(to ? eq(emailOutbox.to, to.toLowerCase()) : undefined)
        .orderBy(desc(emailOutbox.id))
        .limit(100);
      return rows.map((r) => ({
        id: r.id,
        to: r.to,
        subject: r.subject,
        text: r.text,
        sentAt: r.sentAt,
        createdAt: r.createdAt,
        attachments: (r.attachments ?? []).map((a, index) => ({
          filename: a.filename,
          url: `/dev/mailbox/${r.id}/attachments/${index}`,
        })),
      }));
    },

    /** One attachment descriptor of an outbox mail, or null. */
    async mailAttachment(id: number, index: number) {
      const [row] = await db
        .select({ attachments: emailOutbox.attachments })
        .from(emailOutbox)
        .where(eq(emailOutbox.id, id));
      return row?.attachments?.[index] ?? null;
    },
  };
}

export type PlatformService = ReturnType<typeof createPlatformService>;
