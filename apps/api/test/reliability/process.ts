import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SMTPServer } from 'smtp-server';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { manualClock } from '../../src/platform/clock.js';
import { openRuntime } from '../../src/runtime.js';
import type { TestApp } from '../helpers.js';

/** Real server processes for the crash and instance tests. */

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const MAIN = path.join(ROOT, 'apps/api/src/main.ts');

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

export interface ServerProcess {
  port: number;
  url: string;
  child: ChildProcess;
  /** What the process printed (for failure messages). */
  output(): string;
  kill(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Starts `apps/api/src/main.ts` as its own process, exactly as `npm run start:api` does but through
 * `node --import tsx` so that the pid we signal is the server itself (the `tsx` CLI would put a
 * supervisor process in between and a SIGKILL would not reach the server).
 */
export async function startServer(env: Record<string, string>, timeoutMs = 60_000): Promise<ServerProcess> {
  const server = await spawnServer(env);
  await server.healthy(timeoutMs);
  return server;
}

/** A server process that may or may not come up: `healthy()` waits for it, `exited` settles when it ends. */
export interface SpawnedServer extends ServerProcess {
  exited: Promise<number | null>;
  healthy(timeoutMs?: number): Promise<void>;
}

/** Starts a server process without waiting for it (to start several at once, or one that should fail). */
export async function spawnServer(env: Record<string, string>, nodeArgs: string[] = []): Promise<SpawnedServer> {
  const port = Number(env.PORT ?? (await freePort()));
  const child = spawn(process.execPath, ['--import', 'tsx', ...nodeArgs, MAIN], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      ...env,
      PORT: String(port),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (c: Buffer) => (out = (out + c.toString()).slice(-20_000)));
  child.stderr?.on('data', (c: Buffer) => (out = (out + c.toString()).slice(-20_000)));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  const url = `http://127.0.0.1:${port}`;
  return {
    port,
    url,
    child,
    exited,
    output: () => out,
    async kill(signal = 'SIGKILL') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
    async healthy(timeoutMs = 60_000) {
      const end = Date.now() + timeoutMs;
      for (;;) {
        if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${out}`);
        try {
          const res = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2000) });
          if (res.ok) return;
        } catch {
          /* not listening yet */
        }
        if (Date.now() > end) {
          child.kill('SIGKILL');
          throw new Error(`server did not start in ${timeoutMs} ms:\n${out}`);
        }
        await new Promise((r) => setTimeout(r, 150));
      }
    },
  };
}

export interface ReceivedMail {
  to: string[];
  subject: string;
}

/** A real SMTP server in the test process (as mail.test.ts does). */
export function startSmtp(opts: { delayMs?: number } = {}) {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    disableReverseLookup: true,
    logger: false,
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const subject = /^Subject: (.*(?:\r\n[ \t].*)*)/m.exec(raw)?.[1]?.replace(/\r\n[ \t]/g, ' ') ?? '';
        setTimeout(() => {
          received.push({ to: session.envelope.rcptTo.map((r) => r.address), subject });
          cb();
        }, opts.delayMs ?? 0);
      });
    },
  });
  // A client killed mid-conversation resets its connection; that is the point of the tests.
  server.on('error', () => undefined);
  return new Promise<{ port: number; received: ReceivedMail[]; close: () => Promise<void> }>((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const port = (server.server.address() as AddressInfo).port;
      resolve({ port, received, close: () => new Promise((r) => server.close(() => r())) });
    });
  });
}

/**
 * The app in this process on the given environment (a data directory or a PostgreSQL schema), to set
 * data up before a server process starts on it or to check it after one stopped. Same shape as
 * createTestApp's answer, so signupAndLogin and the fixtures work on it.
 */
export async function openInProcess(env: Record<string, string>): Promise<TestApp> {
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', SEED_CATALOGUE: 'false', ...env });
  const clock = manualClock(new Date());
  const rt = await openRuntime(config, { clock });
  const app = await buildApp({
    config,
    db: rt.database.db,
    clock,
    storage: rt.storage,
    rateLimits: rt.rateLimits,
    mail: rt.mail,
    secret: rt.secret,
    logger: false,
    webDist: null,
  });
  await app.ready();
  return {
    app,
    rt,
    clock,
    config,
    async close() {
      await app.close();
      await rt.close();
    },
  };
}
