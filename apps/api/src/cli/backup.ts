import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config.js';
import { backupDataDir, restoreDataDir } from '../platform/backup.js';

/**
 * npm run backup -- [--out DIR]          copies DATA_DIR's database, uploads and secret into DIR
 * npm run restore -- --from DIR [--to D]  restores into an empty data directory (DATA_DIR by default)
 */
async function main() {
  const mode = process.argv[2];
  const { values } = parseArgs({
    args: process.argv.slice(3),
    options: { out: { type: 'string' }, from: { type: 'string' }, to: { type: 'string' } },
  });
  const config = loadConfig();
  if (config.DATABASE_URL) {
    console.error(
      'DATABASE_URL is set: back up the PostgreSQL server with pg_dump (see the README) and copy the uploads folder.',
    );
    process.exit(2);
  }
  if (mode === 'backup') {
    const out = values.out ?? path.join('backups', new Date().toISOString().replace(/[:.]/g, '-'));
    const m = await backupDataDir(config.DATA_DIR, out);
    console.log(`Backup written to ${out} (${m.files} uploaded files)`);
  } else if (mode === 'restore') {
    if (!values.from) {
      console.error('Usage: npm run restore -- --from backups/<folder> [--to <empty data directory>]');
      process.exit(2);
    }
    const to = values.to ?? config.DATA_DIR;
    const m = await restoreDataDir(values.from, to);
    console.log(`Restored the backup of ${m.createdAt} into ${to}`);
  } else {
    console.error('Usage: backup.ts backup|restore ...');
    process.exit(2);
  }
}

main().catch((err) => {
  console.error(err instanceof ConfigError ? err.message : `Failed: ${(err as Error).message}`);
  process.exit(1);
});
