import { mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { localStorage } from './storage.js';

// The disk fills up halfway through writing a file: the kernel has taken some bytes and then says
// ENOSPC. Every write under the test's directory does so while `disk.full` is set.
const disk = vi.hoisted(() => ({ full: false }));
vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>();
  const writeFile: typeof real.writeFile = async (file, data, options) => {
    if (!disk.full || !Buffer.isBuffer(data)) return real.writeFile(file, data, options);
    await real.writeFile(file, data.subarray(0, Math.floor(data.length / 2)), options);
    throw Object.assign(new Error(`ENOSPC: no space left on device, write`), { code: 'ENOSPC', syscall: 'write' });
  };
  return { ...real, default: { ...real, writeFile }, writeFile };
});

let root: string;
beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'lm-storage-'));
  disk.full = false;
});
afterEach(() => rm(root, { recursive: true, force: true }));

it('a write that fills the disk leaves no half file behind, and the same upload is stored once there is room', async () => {
  const storage = localStorage(root);
  const confidential = Buffer.from('CONFIDENTIAL-BRIEF '.repeat(1000));
  const key = `${'a'.repeat(32)}.pdf`;

  disk.full = true;
  await expect(storage.put(key, confidential)).rejects.toMatchObject({ code: 'ENOSPC' });
  // Half a confidential document kept under a name no row knows: it would fill the disk further, stay
  // past any erasure and be copied by every backup.
  expect(await readdir(root)).toEqual([]);
  expect(await storage.get(key)).toBeNull();

  disk.full = false;
  await storage.put(key, confidential);
  expect(await readdir(root)).toEqual([key]);
  const stored = await storage.get(key);
  const chunks: Buffer[] = [];
  for await (const chunk of stored!.stream) chunks.push(chunk as Buffer);
  expect(Buffer.concat(chunks).equals(confidential)).toBe(true);
});

it("removes a crash's half-written file once it is an hour old, never a stored file or a write under way", async () => {
  const storage = localStorage(root);
  const key = `${'b'.repeat(32)}.pdf`;
  await storage.put(key, Buffer.from('STORED'));
  // A process killed mid-write (no catch ran) left its temp file; another instance is writing one now.
  const crashed = `${'c'.repeat(32)}.pdf.4242.tmp`;
  const underWay = `${'d'.repeat(32)}.pdf.4343.tmp`;
  await writeFile(path.join(root, crashed), 'HALF-A-BRIEF');
  await writeFile(path.join(root, underWay), 'BEING-WRITTEN');
  const twoHoursAgo = new Date(Date.now() - 2 * 3_600_000);
  await utimes(path.join(root, crashed), twoHoursAgo, twoHoursAgo);
  await utimes(path.join(root, key), twoHoursAgo, twoHoursAgo);

  expect(await storage.removePartial!(new Date(Date.now() - 3_600_000))).toBe(1);
  expect((await readdir(root)).sort()).toEqual([key, underWay].sort());
});
