import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/client.js';
import { createTestApp, describeEachDb, signupAndLogin, type TestApp } from '../helpers.js';
import { startS3, type S3Server } from '../s3-server.js';
import { multipart, pdfBytes } from '../upload-helpers.js';

/**
 * The upload store failing (S3 answering 500 InternalError, as during an outage) while a file is
 * sent. Before: 500 "Something went wrong on our side", which a client shows as final and does not
 * retry. Now 503 with Retry-After and a sentence naming the file; nothing is recorded, and once the
 * store answers again the same upload goes through.
 */
describeEachDb('the upload store failing', (kind) => {
  let s3: S3Server;
  let relay: http.Server;
  let failing = false;
  // What the failing store answers: an outage by default.
  let failure = { status: 500, code: 'InternalError' };
  let t: TestApp;
  let company: Awaited<ReturnType<typeof signupAndLogin>>;

  beforeAll(async () => {
    s3 = await startS3(['uploads']);
    const target = new URL(s3.endpoint);
    // In front of the S3 server: passes requests through, or answers each one 500 when `failing`.
    relay = http.createServer((req, res) => {
      if (failing) {
        req.resume();
        res.writeHead(failure.status, { 'content-type': 'application/xml' });
        res.end(
          `<?xml version="1.0"?><Error><Code>${failure.code}</Code><Message>We encountered an internal error.</Message></Error>`,
        );
        return;
      }
      const up = http.request(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      up.on('error', () => res.destroy());
      req.pipe(up);
    });
    await new Promise<void>((r) => relay.listen(0, '127.0.0.1', r));
    const endpoint = `http://127.0.0.1:${(relay.address() as AddressInfo).port}`;
    t = await createTestApp(kind, { ...s3.env('uploads'), S3_ENDPOINT: endpoint });
    company = await signupAndLogin(t, 'company');
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    relay?.closeAllConnections();
    await new Promise((r) => relay?.close(r));
    await s3?.close();
  });

  const upload = async () => {
    const body = await multipart([{ name: 'file', file: { data: pdfBytes('Brief'), filename: 'brief.pdf' } }]);
    return t.app.inject({
      method: 'POST',
      url: '/api/uploads?kind=document',
      headers: { ...body.headers, ...company.headers },
      payload: body.payload,
    });
  };
  const recorded = async () =>
    rowsOf<{ n: number }>(await t.rt.database.db.execute(sql`select count(*)::int as n from uploads`))[0].n;

  it('answers 503 with Retry-After and records nothing; the same upload succeeds once the store is back', async () => {
    const before = await recorded();
    failing = true;
    const res = await upload();
    failing = false;
    expect(res.statusCode, res.body).toBe(503);
    expect(res.headers['retry-after']).toBeDefined();
    expect(res.json()).toEqual({
      status: 'fail',
      message: 'The file could not be stored just now. Please try again in a few minutes.',
    });
    expect(await recorded()).toBe(before);
    const again = await upload();
    expect(again.statusCode, again.body).toBe(201);
    expect(await recorded()).toBe(before + 1);
  }, 60_000);

  it('a store refusing for good (403 AccessDenied) answers 500, not a 503 to retry; nothing recorded', async () => {
    const before = await recorded();
    failing = true;
    failure = { status: 403, code: 'AccessDenied' };
    const res = await upload().finally(() => {
      failing = false;
      failure = { status: 500, code: 'InternalError' };
    });
    expect(res.statusCode, res.body).toBe(500);
    expect(res.headers['retry-after']).toBeUndefined();
    expect(await recorded()).toBe(before);
  }, 60_000);

  it('a store throttling (503 SlowDown) is a 503 to retry', async () => {
    failing = true;
    failure = { status: 503, code: 'SlowDown' };
    const res = await upload().finally(() => {
      failing = false;
      failure = { status: 500, code: 'InternalError' };
    });
    expect(res.statusCode, res.body).toBe(503);
    expect(res.headers['retry-after']).toBe('60');
  }, 60_000);
});
