import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { AppDeps } from './app.js';
import type { Config } from './config.js';
import { migrate, openDatabase, type Database } from './db/client.js';
import { systemClock, type Clock } from './platform/clock.js';
import { createMailWorker, type MailWorker } from './platform/mailer.js';
import { memoryStore, redisStore, type RateLimitStore } from './platform/rate-limit.js';
import { localStorage, memoryStorage, type Storage } from './platform/storage.js';
import { createLogger } from './platform/logging.js';

export interface Runtime {
  config: Config;
  database: Database;
  clock: Clock;
  storage: Storage;
  rateLimits: RateLimitStore;
  mail: MailWorker;
  secret: string;
  logger: Logger;
  close(): Promise<void>;
}

const inMemory = (c: Config) => c.DATA_DIR.startsWith('memory://');

/** The signing secret: JWT_SECRET, or one kept in DATA_DIR so sessions survive a restart on one machine. */
async function loadSecret(config: Config): Promise<string> {
  if (config.JWT_SECRET) return config.JWT_SECRET;
  if (inMemory(config)) return randomBytes(32).toString('base64url');
  const file = path.join(config.DATA_DIR, '.secret');
  try {
    return (await readFile(file, 'utf8')).trim();
  } catch {
    const secret = randomBytes(32).toString('base64url');
    await writeFile(file, secret, { mode: 0o600, flag: 'wx' }).catch(() => undefined);
    return (await readFile(file, 'utf8')).trim();
  }
}

/** STORAGE=s3: a checked bucket (the AWS SDK is loaded only then); otherwise DATA_DIR/uploads or memory. */
async function openStorage(config: Config): Promise<Storage> {
  if (config.STORAGE === 's3') {
    const { s3Storage } = await import('./platform/storage-s3.js');
    return s3Storage({
      endpoint: config.S3_ENDPOINT,
      region: config.S3_REGION,
      bucket: config.S3_BUCKET!,
      accessKeyId: config.S3_ACCESS_KEY_ID!,
      secretAccessKey: config.S3_SECRET_ACCESS_KEY!,
      forcePathStyle: config.S3_FORCE_PATH_STYLE,
    });
  }
  return inMemory(config) ? memoryStorage() : localStorage(path.join(config.DATA_DIR, 'uploads'));
}

/** Opens everything the app needs from the configuration: database (migrated), storage, limits, mail. */
export async function openRuntime(
  config: Config,
  opts: { clock?: Clock; schemaName?: string; logger?: Logger } = {},
): Promise<Runtime> {
  const logger = opts.logger ?? createLogger(config.LOG_LEVEL);
  if (!inMemory(config)) await mkdir(config.DATA_DIR, { recursive: true });
  // First: a wrong bucket or key stops the start before anything else is opened.
  const storage = await openStorage(config);
  const database = await openDatabase({
    url: config.DATABASE_URL,
    dataDir: inMemory(config) ? 'memory://' : path.join(config.DATA_DIR, 'db'),
    schemaName: opts.schemaName ?? config.DATABASE_SCHEMA,
    poolSize: config.DATABASE_POOL_SIZE,
    connectTimeoutMs: config.DATABASE_CONNECT_TIMEOUT_MS,
  });
  const applied = await migrate(database.db);
  if (applied.length) logger.info({ migrations: applied }, `database migrated: ${applied.length} migration(s) applied`);
  const clock = opts.clock ?? systemClock;
  const rateLimits = config.REDIS_URL ? redisStore(config.REDIS_URL) : memoryStore(clock);
  const mail = createMailWorker({
    db: database.db,
    smtpUrl: config.SMTP_URL,
    from: config.MAIL_FROM,
    clock,
    log: logger,
    pollMs: config.MAIL_POLL_MS,
    exclusive: database.kind === 'pglite',
  });
  const secret = await loadSecret(config);
  return {
    config,
    database,
    clock,
    storage,
    rateLimits,
    mail,
    secret,
    logger,
    async close() {
      await mail.stop();
      await rateLimits.close();
      await database.close();
      storage.close?.();
    },
  };
}

/** What buildApp needs, taken from an open runtime; callers add or override logger and webDist. */
export function appDeps(rt: Runtime): AppDeps {
  return {
    config: rt.config,
    db: rt.database.db,
    clock: rt.clock,
    storage: rt.storage,
    rateLimits: rt.rateLimits,
    mail: rt.mail,
    secret: rt.secret,
    logger: rt.logger,
  };
}
