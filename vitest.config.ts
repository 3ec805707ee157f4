import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Suites that measure time or memory, or share the one Redis server's rate-limit keys: they run alone,
 * after the rest, so a neighbouring suite's load can neither skew a median nor spend their limits.
 */
const ALONE = [
  'apps/api/test/security/brute-force.test.ts',
  'apps/api/test/reliability/crash.test.ts',
  'apps/api/test/reliability/faults.test.ts',
  'apps/api/test/reliability/uploads-attack.test.ts',
  'apps/api/test/reliability/instances.test.ts',
  'apps/api/src/platform/rate-limit.test.ts',
  'apps/api/src/platform/backup.test.ts',
];

const api = { environment: 'node', testTimeout: 30_000, hookTimeout: 60_000, pool: 'forks' } as const;

export default defineConfig({
  test: {
    // Vitest's default is one worker per core but one, which is one worker on a two-core machine; most
    // suites wait on PostgreSQL or on password hashing, so two keep both cores busy.
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'contracts',
          include: ['packages/contracts/src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          ...api,
          name: 'api',
          include: ['apps/api/src/**/*.test.ts', 'apps/api/test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...ALONE],
        },
      },
      { test: { ...api, name: 'api-alone', include: ALONE, maxWorkers: 1 } },
      'apps/web/vitest.config.ts',
    ],
  },
});
