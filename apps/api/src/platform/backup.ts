import { cp, mkdir, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';

/**
 * Backups of the embedded database: a consistent copy of PGlite's data directory (its own tar dump),
 * the uploads folder and the signing secret, in one folder. For a PostgreSQL server use pg_dump
 * (see the README). The server must be stopped: PGlite has one writer.
 */
interface BackupManifest {
  createdAt: string;
  format: 1;
  files: number;
}

const LOCK = 'server.pid';

/**
 * The live process a lock names, or null when there is no lock or it is stale (its process died). For a
 * server taking the lock, its own pid there is stale too: a previous life of a container's pid 1.
 */
async function lockHolder(lock: string, ownPidIsStale = false): Promise<number | null> {
  let pid: number;
  try {
    pid = Number((await readFile(lock, 'utf8')).trim());
  } catch {
    return null;
  }
  if (!Number.isInteger(pid) || pid <= 0 || (ownPidIsStale && pid === process.pid)) return null;
  try {
    process.kill(pid, 0);
    return pid;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM' ? pid : null; // EPERM: alive, another user's
  }
}

const holdsMessage = (pid: number, dataDir: string) =>
  `The server (pid ${pid}) is running on ${dataDir}; stop it first (the embedded database has one writer).`;

async function assertServerStopped(dataDir: string) {
  const pid = await lockHolder(path.join(dataDir, LOCK));
  if (pid !== null) throw new Error(holdsMessage(pid, dataDir));
}

/**
 * Takes the data directory for this process before the database is opened: the lock file is created
 * exclusively, so of two servers started together exactly one gets it and the other stops before it
 * opens or migrates anything. A stale lock (its process died) is replaced.
 */
export async function acquireServerLock(dataDir: string): Promise<void> {
  await mkdir(dataDir, { recursive: true });
  const lock = path.join(dataDir, LOCK);
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      await writeFile(lock, String(process.pid), { flag: 'wx' });
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const pid = await lockHolder(lock, true);
    if (pid !== null) throw new Error(holdsMessage(pid, dataDir));
    // Stale: remove it and try the exclusive create again (a rival doing the same gets EEXIST then).
    await rm(lock, { force: true });
  }
  throw new Error(`Could not take the lock ${lock}; is another server starting on ${dataDir}?`);
}

export const writeServerLock = (dataDir: string) => writeFile(path.join(dataDir, LOCK), String(process.pid));
export const removeServerLock = (dataDir: string) => rm(path.join(dataDir, LOCK), { force: true });

async function countFiles(dir: string): Promise<number> {
  if (!existsSync(dir)) return 0;
  return (await readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).length;
}

export async function backupDataDir(dataDir: string, outDir: string): Promise<BackupManifest> {
  await assertServerStopped(dataDir);
  const dbDir = path.join(dataDir, 'db');
  if (!existsSync(dbDir)) throw new Error(`No embedded database in ${dataDir}`);
  await mkdir(outDir, { recursive: true });
  if ((await readdir(outDir)).length) throw new Error(`${outDir} is not empty`);
  const pg = new PGlite(dbDir);
  try {
    await pg.waitReady;
    const dump = await pg.dumpDataDir('gzip');
    await writeFile(path.join(outDir, 'db.tar.gz'), Buffer.from(await dump.arrayBuffer()));
  } finally {
    await pg.close();
  }
  const uploads = path.join(dataDir, 'uploads');
  if (existsSync(uploads)) await cp(uploads, path.join(outDir, 'uploads'), { recursive: true });
  const secret = path.join(dataDir, '.secret');
  if (existsSync(secret)) await cp(secret, path.join(outDir, '.secret'));
  const manifest: BackupManifest = {
    createdAt: new Date().toISOString(),
    format: 1,
    files: await countFiles(path.join(outDir, 'uploads')),
  };
  await writeFile(path.join(outDir, 'manifest.json'), JSON.stringify(manifest, null, 2));
  return manifest;
}

export async function restoreDataDir(backupDir: string, dataDir: string): Promise<BackupManifest> {
  const manifest = JSON.parse(await readFile(path.join(backupDir, 'manifest.json'), 'utf8')) as BackupManifest;
  if (manifest.format !== 1) throw new Error('Unknown backup format');
  const dbDir = path.join(dataDir, 'db');
  if (existsSync(dbDir) && (await readdir(dbDir)).length)
    throw new Error(`${dataDir} already holds a database; restore into an empty data directory`);
  await mkdir(dataDir, { recursive: true });
  const tar = await readFile(path.join(backupDir, 'db.tar.gz'));
  const pg = new PGlite(dbDir, { loadDataDir: new Blob([tar]) });
  await pg.waitReady;
  await pg.close();
  if (existsSync(path.join(backupDir, 'uploads')))
    await cp(path.join(backupDir, 'uploads'), path.join(dataDir, 'uploads'), { recursive: true });
  if (existsSync(path.join(backupDir, '.secret')))
    await cp(path.join(backupDir, '.secret'), path.join(dataDir, '.secret'));
  await stat(dbDir);
  return manifest;
}
