// Test-only preload (node --import) for a server process: after SIGUSR2, every write, fsync and
// opening for writing of a file under FAILING_DISK_DIR fails with EROFS, as on a data directory
// remounted read-only. PGlite's file system (Emscripten's NODEFS) calls these node:fs functions.
import fs from 'node:fs';
import path from 'node:path';
import { syncBuiltinESMExports } from 'node:module';

const dir = path.resolve(process.env.FAILING_DISK_DIR ?? '/nonexistent');
const under = new Set();
let failing = false;
process.on('SIGUSR2', () => {
  failing = true;
});
const erofs = (what) =>
  Object.assign(new Error(`EROFS: read-only file system, ${what}`), { code: 'EROFS', errno: -30, syscall: what });
const inside = (p) => typeof p === 'string' && path.resolve(p).startsWith(dir + path.sep);
const writing = (flags) =>
  typeof flags === 'number'
    ? (flags & 3) !== 0 || (flags & fs.constants.O_CREAT) !== 0
    : /[wa+]/.test(String(flags ?? 'r'));

const { openSync, closeSync, writeSync, fsyncSync, fdatasyncSync, ftruncateSync, renameSync, unlinkSync } = fs;
fs.openSync = function (p, flags, mode) {
  if (failing && inside(p) && writing(flags)) throw erofs('open');
  const fd = openSync.call(this, p, flags, mode);
  if (inside(p)) under.add(fd);
  return fd;
};
fs.closeSync = function (fd) {
  under.delete(fd);
  return closeSync.call(this, fd);
};
const guardFd = (name, original) =>
  function (fd, ...rest) {
    if (failing && under.has(fd)) throw erofs(name);
    return original.call(this, fd, ...rest);
  };
fs.writeSync = guardFd('write', writeSync);
fs.fsyncSync = guardFd('fsync', fsyncSync);
fs.fdatasyncSync = guardFd('fdatasync', fdatasyncSync);
fs.ftruncateSync = guardFd('ftruncate', ftruncateSync);
const guardPath = (name, original) =>
  function (p, ...rest) {
    if (failing && inside(p)) throw erofs(name);
    return original.call(this, p, ...rest);
  };
fs.renameSync = guardPath('rename', renameSync);
fs.unlinkSync = guardPath('unlink', unlinkSync);
syncBuiltinESMExports();
