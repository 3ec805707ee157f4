import type { Executor } from '../db/client.js';
import { auditLog } from '../db/schema.js';

export interface AuditEntry {
  actorId: string;
  /** e.g. lawyer.verify, job.assign, job.cancel, payout.approve, product.update: AUDIT_ACTION_LABELS names the admin's ones */
  action: string;
  targetType?: string;
  targetId?: string;
  details?: Record<string, unknown>;
}

/** Records an admin action in the same transaction as the action itself. */
export async function recordAudit(tx: Executor, e: AuditEntry) {
  await tx.insert(auditLog).values({
    actorId: e.actorId,
    action: e.action,
    targetType: e.targetType ?? null,
    targetId: e.targetId ?? null,
    details: e.details ?? null,
  });
}
