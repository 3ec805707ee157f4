import { defineConfig, devices } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 3210);
const dataDir = process.env.E2E_DATA_DIR ?? `/tmp/legalmarket-e2e-${port}`;

/** Journeys in Debian's Chromium against the real API serving the built web app. */
export default defineConfig({
  testDir: './e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  outputDir: `../../test-results/e2e-artifacts-${port}`,
  reporter: [['list'], ['json', { outputFile: process.env.E2E_JSON ?? '../../test-results/e2e.json' }]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: 'retain-on-failure',
    // The service worker's stale-while-revalidate catalogue would show a journey the catalogue as it was
    // one visit ago; only e2e/offline.spec.ts, which is about it, lets it run.
    serviceWorkers: 'block',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      // Flags this machine kind needs for headless runs (no sandbox as root, no background network).
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-dev-shm-usage',
      ],
    },
  },
  projects: [{ name: 'desktop', use: { ...devices['Desktop Chrome'], channel: undefined } }],
  webServer: {
    command: 'npx tsx ../api/src/main.ts',
    url: `http://127.0.0.1:${port}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: dataDir,
      ...(process.env.E2E_WEB_DIST ? { WEB_DIST: process.env.E2E_WEB_DIST } : {}),
      LOG_LEVEL: 'warn',
      ADMIN_INVITE_CODE: 'e2e-admin-invite-code',
      IP_MAX_REQUESTS: '100000',
      SUPPORT_PHONE: '2348012345678',
    },
  },
});
