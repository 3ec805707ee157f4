import { expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { CONNECT_TIMEOUT_MS, poolConfig } from './client.js';

// A blackholed database server must not hang each request for the OS's two minutes.
it('the PostgreSQL pool waits at most 5 seconds for a connection, unless configured otherwise', () => {
  expect(CONNECT_TIMEOUT_MS).toBe(5_000);
  expect(poolConfig({ url: 'postgres://x@db/x' }).connectionTimeoutMillis).toBe(5_000);
  expect(poolConfig({ url: 'postgres://x@db/x', connectTimeoutMs: 900 }).connectionTimeoutMillis).toBe(900);
});

it('DATABASE_CONNECT_TIMEOUT_MS sets the bound (default 5000)', () => {
  expect(loadConfig({}).DATABASE_CONNECT_TIMEOUT_MS).toBe(5_000);
  expect(loadConfig({ DATABASE_CONNECT_TIMEOUT_MS: '1500' }).DATABASE_CONNECT_TIMEOUT_MS).toBe(1_500);
});
