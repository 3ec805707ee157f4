import { createReadStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';

/** Where uploaded files live: local disk by default, an S3-compatible bucket with STORAGE=s3 (storage-s3.ts). */
export interface Storage {
  put(key: string, data: Buffer): Promise<void>;
  get(key: string): Promise<{ stream: Readable; size: number } | null>;
  remove(key: string): Promise<void>;
  /**
   * Removes what writes cut off by a crash left (local disk: `<key>.<pid>.tmp`), last changed before
   * `before`; answers how many. Stores whose writes are atomic have none.
   */
  removePartial?(before: Date): Promise<number>;
  /** Releases connections (the S3 client's); the runtime calls it on close. */
  close?(): void;
}

const SAFE_KEY = /^[A-Za-z0-9][A-Za-z0-9._-]{0,200}$/;
export const isSafeKey = (key: string) => SAFE_KEY.test(key) && !key.includes('..');

export function localStorage(root: string): Storage {
  const file = (key: string) => {
    if (!isSafeKey(key)) throw new Error('unsafe storage key');
    return path.join(root, key);
  };
  return {
    async put(key, data) {
      await mkdir(root, { recursive: true });
      const target = file(key);
      const tmp = `${target}.${process.pid}.tmp`;
      try {
        await writeFile(tmp, data);
        await rename(tmp, target); // a reader never sees half a file
      } catch (err) {
        // A full disk stops the write halfway: the part written would stay under a name no row knows.
        await rm(tmp, { force: true }).catch(() => undefined);
        throw err;
      }
    },
    async get(key) {
      if (!isSafeKey(key)) return null;
      try {
        const s = await stat(file(key));
        if (!s.isFile()) return null;
        return { stream: createReadStream(file(key)), size: s.size };
      } catch {
        return null;
      }
    },
    async remove(key) {
      if (isSafeKey(key)) await rm(file(key), { force: true });
    },
    async removePartial(before) {
      const names = await readdir(root).catch(() => [] as string[]);
      let removed = 0;
      for (const name of names) {
        if (!/\.\d+\.tmp$/.test(name) || !isSafeKey(name)) continue;
        // Another instance's write under way is seconds old; only one long past is a crash's leftover.
        const s = await stat(path.join(root, name)).catch(() => null);
        if (!s?.isFile() || s.mtime >= before) continue;
        await rm(path.join(root, name), { force: true });
        removed++;
      }
      return removed;
    },
  };
}

/** In memory, for tests that run without a data directory. */
export function memoryStorage(): Storage {
  const files = new Map<string, Buffer>();
  return {
    async put(key, data) {
      if (!isSafeKey(key)) throw new Error('unsafe storage key');
      files.set(key, Buffer.from(data));
    },
    async get(key) {
      const b = files.get(key);
      if (!b) return null;
      const { Readable } = await import('node:stream');
      return { stream: Readable.from([b]), size: b.length };
    },
    async remove(key) {
      files.delete(key);
    },
  };
}
