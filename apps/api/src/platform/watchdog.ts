import { Worker } from 'node:worker_threads';

/**
 * The embedded database runs inside this thread: when a write to its files fails (a data directory gone
 * read-only, a full or failing disk), PGlite spins in its WebAssembly for good, and nothing on this thread
 * runs again: not the health check, not the SIGTERM handler. A worker thread watches the event loop's
 * heartbeat; after `stallMs` without one it logs a fatal line and ends the process with SIGKILL (the only
 * signal a stuck thread cannot ignore), so a supervisor restarts it on the data that was committed.
 */
export function startWatchdog(opts: { stallMs: number }) {
  const shared = new SharedArrayBuffer(8);
  const beat = new BigInt64Array(shared);
  const tick = () => Atomics.store(beat, 0, BigInt(Date.now()));
  tick();
  const timer = setInterval(tick, Math.min(250, opts.stallMs / 4));
  timer.unref();
  const worker = new Worker(WATCHER, { eval: true, workerData: { shared, stallMs: opts.stallMs, pid: process.pid } });
  worker.unref();
  return {
    async stop() {
      clearInterval(timer);
      await worker.terminate();
    },
  };
}

// Plain CommonJS, run by the worker: reads the heartbeat, writes one pino-style fatal line, kills.
const WATCHER = `
const { workerData } = require('node:worker_threads');
const fs = require('node:fs');
const beat = new BigInt64Array(workerData.shared);
setInterval(() => {
  const stalled = Date.now() - Number(Atomics.load(beat, 0));
  if (stalled < workerData.stallMs) return;
  const msg = 'The server has not run for ' + Math.round(stalled / 1000) + ' s (the embedded database is stuck, ' +
    'most likely after a failed write to its files: a read-only or full data directory); ending the process ' +
    'so that a supervisor restarts it';
  fs.writeSync(1, JSON.stringify({ level: 60, time: new Date().toISOString(), pid: workerData.pid, msg }) + '\\n');
  process.kill(workerData.pid, 'SIGKILL');
}, Math.min(1000, Math.max(50, workerData.stallMs / 4)));
`;
