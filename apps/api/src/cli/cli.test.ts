import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { openRuntime, appDeps } from '../runtime.js';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../../../..');
const tsx = path.join(root, 'node_modules/.bin/tsx');

async function cli(script: string, args: string[], env: Record<string, string>) {
  try {
    const r = await run(tsx, [path.join(root, 'apps/api/src', script), ...args], {
      cwd: root,
      env: { PATH: process.env.PATH!, HOME: process.env.HOME ?? '/tmp', ...env },
      timeout: 60_000,
    });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

// Each case spawns tsx processes: generous time for a busy 2-core machine.
describe('command line', { timeout: 120_000 }, () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'lm-cli-'));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('create-admin creates a confirmed admin who can log in, and refuses a duplicate', async () => {
    const env = { DATA_DIR: dataDir, LOG_LEVEL: 'silent', SEED_CATALOGUE: 'false' };
    const first = await cli(
      'cli/create-admin.ts',
      ['--email', 'Ops@Example.ng', '--name', 'Ops Lead', '--password', 'Adm1n!Pass'],
      env,
    );
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/Admin created: ops@example\.ng/);
    const again = await cli('cli/create-admin.ts', ['--email', 'ops@example.ng', '--name', 'Ops Lead'], env);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already exists/);
    const usage = await cli('cli/create-admin.ts', ['--name', 'No Email'], env);
    expect(usage.code).toBe(2);

    const config = loadConfig({ ...env, NODE_ENV: 'test' });
    const rt = await openRuntime(config);
    const app = await buildApp({ ...appDeps(rt), logger: false, webDist: null });
    try {
      const login = await app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { officialEmail: 'ops@example.ng', password: 'Adm1n!Pass' },
      });
      expect(login.statusCode).toBe(200);
      expect(login.json().data.user.userType).toBe('admin');
    } finally {
      await app.close();
      await rt.close();
    }
  });

  it('the server refuses to start with a one-line message when the configuration is invalid', async () => {
    const res = await cli('main.ts', [], { PORT: 'abc', DATABASE_URL: 'mysql://nope', DATA_DIR: dataDir });
    expect(res.code).toBe(1);
    const lines = res.stderr
      .trim()
      .split('\n')
      .filter((l) => !/npm warn/.test(l));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^Invalid configuration: .*PORT.*DATABASE_URL/);
  });
});
