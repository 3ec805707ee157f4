import { afterAll, expect, it } from 'vitest';
import Fastify from 'fastify';
import { registerErrorHandling } from './errors.js';

// A client that aborts mid-body: Node raises Error('aborted') with code ECONNRESET and Fastify's body
// reader sets statusCode 400. The client's socket, not the database's: a 400, never a 503.
const app = Fastify({ logger: false });
registerErrorHandling(app);
app.post('/aborted', () => {
  throw Object.assign(new Error('aborted'), { code: 'ECONNRESET', statusCode: 400 });
});
app.post('/reset', () => {
  throw Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
});
afterAll(() => app.close());

it("a client's aborted body (ECONNRESET with Fastify's 400) answers 400, not database unavailable", async () => {
  const res = await app.inject({ method: 'POST', url: '/aborted' });
  expect(res.statusCode).toBe(400);
  expect(res.json().status).toBe('fail');
  expect(res.headers['retry-after']).toBeUndefined();
});

it('a socket reset with no client status is still a 503 to retry', async () => {
  const res = await app.inject({ method: 'POST', url: '/reset' });
  expect(res.statusCode).toBe(503);
  expect(res.headers['retry-after']).toBe('5');
});
