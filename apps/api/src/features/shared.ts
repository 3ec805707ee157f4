// What app.ts hands every feature's routes and services. It lives here, not in app.ts, so that features
// never import the composition root (which imports them); not in platform/, because it names a feature's
// service (accounts) and platform/ never imports features.
import type { Config } from '../config.js';
import type { Db } from '../db/client.js';
import type { ResponseCache } from '../platform/response-cache.js';
import type { Auth } from '../platform/auth.js';
import type { Clock } from '../platform/clock.js';
import type { Limits } from '../platform/rate-limit.js';
import type { Storage } from '../platform/storage.js';
import type { AccountsService } from './accounts/service.js';

export interface Shared {
  config: Config;
  db: Db;
  clock: Clock;
  auth: Auth;
  limits: Limits;
  storage: Storage;
  hashToken: (token: string) => string;
  securityLog: (event: string, fields: Record<string, unknown>) => void;
  /** Call after a commit that wrote mail into the outbox. */
  mailWritten: () => void;
  accounts: AccountsService;
  /** The busiest signed-in reads, cached until the data changes (platform/response-cache.ts). */
  answers: ResponseCache;
}
