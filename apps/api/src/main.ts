import { ConfigError, loadConfig } from './config.js';
import { buildApp } from './app.js';
import { openRuntime, appDeps } from './runtime.js';
import { acquireServerLock, removeServerLock } from './platform/backup.js';
import { startWatchdog } from './platform/watchdog.js';
import { seedCatalogue } from './features/catalogue/seed.js';

/** The data directory this process holds, released when a failed start ends the process. */
let lockedDataDir: string | null = null;

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  // The embedded database has one writer: the data directory is taken before the database is opened (and
  // migrated), so a second server started beside this one stops at once; backups refuse while it is held.
  const embedded = !config.DATABASE_URL && !config.DATA_DIR.startsWith('memory://');
  if (embedded) {
    await acquireServerLock(config.DATA_DIR);
    lockedDataDir = config.DATA_DIR;
  }
  const rt = await openRuntime(config);
  await seedCatalogue({
    db: rt.database.db,
    storage: rt.storage,
    clock: rt.clock,
    config,
    log: (m) => rt.logger.info(m),
  });
  const app = await buildApp({ ...appDeps(rt), webDist: config.WEB_DIST, jobScheduler: true });
  (await import('./features/checkout/reconciler.js')).startPaymentReconciler(app, {
    config,
    db: rt.database.db,
    clock: rt.clock,
    logger: rt.logger,
  });
  rt.mail.start();
  await app.listen({ port: config.PORT, host: config.HOST });
  // Started once running: a stuck database (a failed disk write) ends the process instead of freezing it.
  startWatchdog({ stallMs: config.STALL_EXIT_SECONDS * 1000 });
  const where = config.DATABASE_URL ? 'PostgreSQL' : `PGlite in ${config.DATA_DIR}`;
  rt.logger.info(
    `LegalMarket is running at ${config.PUBLIC_URL} (database: ${where}, mail: ${rt.mail.enabled ? 'SMTP' : 'outbox at /dev/mailbox'})`,
  );

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    rt.logger.info(`${signal} received, shutting down`);
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    await app.close();
    await rt.close();
    if (embedded) await removeServerLock(config.DATA_DIR);
    lockedDataDir = null;
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch(async (err) => {
  console.error(`LegalMarket failed to start: ${err instanceof Error ? err.message : String(err)}`);
  if (lockedDataDir) await removeServerLock(lockedDataDir).catch(() => undefined);
  process.exit(1);
});
