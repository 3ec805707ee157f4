import { and, eq, isNull } from 'drizzle-orm';
import { users } from './schema.js';

/** Admins who still have an account: a deleted admin's row stays for the audit log, its address erased. */
export const liveAdmin = and(eq(users.userType, 'admin'), isNull(users.deletedAt))!;
