#!/usr/bin/env node
// Runs the Playwright journeys in Debian's Chromium on a fresh data directory.
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(chromium)) {
  const msg = `Browser tests need Chromium at ${chromium} (apt-get install -y chromium).`;
  if (process.env.CI) {
    console.error(`${msg} CI must install it.`);
    process.exit(1);
  }
  console.warn(`SKIPPED: ${msg} Install it to run the journeys.`);
  process.exit(0);
}
if (!existsSync('apps/web/dist/index.html')) {
  console.error('The web app is not built: run npm run build first.');
  process.exit(1);
}
const dataDir = mkdtempSync(path.join(tmpdir(), 'legalmarket-e2e-'));
// The server serves a copy of the built app, so a rebuild during the run cannot pull files from under it.
const webDist = path.join(dataDir, 'web');
cpSync('apps/web/dist', webDist, { recursive: true });
const res = spawnSync(
  'npx',
  ['playwright', 'test', '-c', process.env.E2E_CONFIG ?? 'apps/web/playwright.config.ts', ...process.argv.slice(2)],
  {
    stdio: 'inherit',
    env: {
      ...process.env,
      E2E_DATA_DIR: path.join(dataDir, 'data'),
      E2E_WEB_DIST: webDist,
      E2E_PORT: process.env.E2E_PORT ?? '3210',
    },
  },
);
rmSync(dataDir, { recursive: true, force: true });
process.exit(res.status ?? 1);
