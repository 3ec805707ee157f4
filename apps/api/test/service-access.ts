import { createAuth } from '../src/platform/auth.js';
import { tokenHasher } from '../src/platform/tokens.js';
import { createAccountsService } from '../src/features/accounts/service.js';
import type { TestApp } from './helpers.js';

/** The accounts service over a test app's database (the same way create-admin uses it). */
export function createAccountsServiceForTests(t: TestApp) {
  const db = t.rt.database.db;
  return createAccountsService({
    db,
    auth: createAuth({ db, secret: t.rt.secret, clock: t.clock, ttlHours: 12 }),
    clock: t.clock,
    hashToken: tokenHasher(t.rt.secret),
    publicUrl: t.config.PUBLIC_URL,
    supportEmail: t.config.SUPPORT_EMAIL,
    mailWritten: () => undefined,
    securityLog: () => undefined,
  });
}
