import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { uploads } from '../../src/db/schema.js';
import { createTestApp, describeEachDb, signupAndLogin, type TestApp } from '../helpers.js';
import { hostileCorpus, type HostileFile } from './hostile-files.js';

/**
 * Issue 8, item 6: uploads under attack. uploads.test.ts proves the rules file by file; this runs the
 * hostile corpus (hostile-files.ts) through POST /api/uploads, reads back what was stored, and pushes
 * a 1 GB body at a real listening server to show the refusal costs neither memory nor time.
 */

/** A multipart body written byte by byte, so file names reach the server exactly as sent (NUL, ../). */
function rawMultipart(file: { filename: string; data: Buffer }, boundary = `----lm${Date.now()}`) {
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.filename.replace(/"/g, '%22')}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    'utf8',
  );
  return {
    payload: Buffer.concat([head, file.data, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

const MB = 1024 * 1024;

describeEachDb('uploads under attack', (kind) => {
  let t: TestApp;
  let dataDir: string;
  let company: Awaited<ReturnType<typeof signupAndLogin>>;
  const corpus: HostileFile[] = hostileCorpus();

  beforeAll(async () => {
    // Real files on disk, so "stored safely" is checked where the bytes land.
    dataDir = await mkdtemp(path.join(tmpdir(), 'lm-uploads-attack-'));
    t = await createTestApp(kind, { DATA_DIR: dataDir });
    company = await signupAndLogin(t, 'company');
  });
  afterAll(async () => {
    await t?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const send = (f: Pick<HostileFile, 'filename' | 'data' | 'kind'>) => {
    const body = rawMultipart(f);
    return t.app.inject({
      method: 'POST',
      url: `/api/uploads?kind=${f.kind}`,
      headers: { ...body.headers, ...company.headers },
      payload: body.payload,
    });
  };

  it(`refuses or safely stores each of the ${corpus.length} hostile files`, async () => {
    expect(corpus.filter((f) => f.expect !== 'stored').length).toBeGreaterThanOrEqual(30);
    const before = (await t.rt.database.db.select().from(uploads)).length;
    const stored: Array<{ file: HostileFile; url: string }> = [];
    for (const f of corpus) {
      const res = await send(f);
      if (f.expect === 'stored') {
        expect({ file: f.name, status: res.statusCode }).toEqual({ file: f.name, status: 201 });
        expect(res.json().data.fileName, f.name).toBe(f.storedName);
        stored.push({ file: f, url: res.json().data.url });
      } else {
        expect({ file: f.name, status: res.statusCode, body: res.json() }).toEqual({
          file: f.name,
          status: f.expect.status,
          body: { status: 'fail', message: f.expect.message },
        });
      }
    }
    // Only the harmless ones became rows, and only they are on disk, each under a random key.
    const rows = await t.rt.database.db.select().from(uploads);
    expect(rows.length - before).toBe(stored.length);
    const onDisk = await readdir(path.join(dataDir, 'uploads'));
    for (const { url } of stored) expect(onDisk).toContain(url.split('/').pop());
    expect(onDisk.every((f) => /^[a-f0-9]{32}\.(png|jpg|webp|pdf|docx|doc)$/.test(f))).toBe(true);
    const everything = await readdir(dataDir, { recursive: true });
    expect(everything.filter((f) => /passwd|evil|report|script|polyglot|\.\./.test(f))).toEqual([]);

    // Served back with their real type, never sniffed; documents as sandboxed downloads.
    for (const { file, url } of stored) {
      const res = await t.app.inject({ method: 'GET', url, headers: company.headers });
      expect(res.statusCode, file.name).toBe(200);
      expect(res.rawPayload.equals(file.data), file.name).toBe(true);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      if (file.kind === 'document') {
        expect(res.headers['content-type']).toBe('application/pdf');
        expect(res.headers['content-disposition']).toContain(`filename="${file.storedName}"`);
        expect(res.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
      } else {
        expect(res.headers['content-type']).toMatch(/^image\/(png|jpeg)$/);
      }
    }
    console.info(
      `[uploads-attack ${kind}] ${corpus.length} hostile files: ${corpus.length - stored.length} refused, ${stored.length} stored safely`,
    );
  }, 60_000);

  it('never unpacks a DOCX zip bomb in memory', async () => {
    const bombs = corpus.filter((f) => f.filename.endsWith('.docx') && f.expect !== 'stored');
    global.gc?.();
    const base = process.memoryUsage();
    let peak = base.rss;
    const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
    try {
      for (let i = 0; i < 5; i++) for (const f of bombs) expect((await send(f)).statusCode).toBeGreaterThanOrEqual(400);
    } finally {
      clearInterval(timer);
    }
    const growth = (peak - base.rss) / MB;
    console.info(`[uploads-attack ${kind}] zip bombs x5: peak RSS growth ${growth.toFixed(1)} MB`);
    expect(growth).toBeLessThan(100);
  }, 60_000);

  it('refuses a 1 GB upload with 413 quickly, with flat memory, on a real socket', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const limit = t.config.UPLOAD_MAX_DOCUMENT_BYTES;

    /** Streams `total` bytes of a file part from a generator; answers when the server answered. */
    const stream = (total: number, declareLength: boolean) =>
      new Promise<{ status: number; ms: number; sentMb: number; peakRssMb: number; heapMb: number }>(
        (resolve, reject) => {
          const boundary = 'lmgigabyte';
          const head = Buffer.from(
            `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="huge.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\n`,
          );
          global.gc?.();
          const base = process.memoryUsage();
          let peak = base.rss;
          let heapPeak = base.heapUsed;
          const sampler = setInterval(() => {
            const m = process.memoryUsage();
            peak = Math.max(peak, m.rss);
            heapPeak = Math.max(heapPeak, m.heapUsed);
          }, 10);
          const started = Date.now();
          let sent = 0;
          let answered = false;
          const req = httpRequest({
            host: '127.0.0.1',
            port,
            method: 'POST',
            path: '/api/uploads?kind=document',
            headers: {
              ...company.headers,
              'content-type': `multipart/form-data; boundary=${boundary}`,
              ...(declareLength ? { 'content-length': String(head.length + total) } : {}),
            },
          });
          const finish = (status: number) => {
            clearInterval(sampler);
            resolve({
              status,
              ms: Date.now() - started,
              sentMb: sent / MB,
              peakRssMb: (peak - base.rss) / MB,
              heapMb: (heapPeak - base.heapUsed) / MB,
            });
          };
          req.on('response', (res) => {
            answered = true;
            res.resume();
            res.on('end', () => {
              req.destroy();
              finish(res.statusCode ?? 0);
            });
          });
          req.on('error', (err) => {
            if (!answered) reject(err);
          });
          // The generator: one 64 KB block reused, written with back-pressure.
          const block = Buffer.alloc(64 * 1024, 0x41);
          async function* body() {
            yield head;
            for (let i = 0; i < total / block.length; i++) yield block;
          }
          (async () => {
            for await (const chunk of body()) {
              if (answered || req.destroyed) return;
              sent += chunk.length;
              if (!req.write(chunk))
                await new Promise<void>((r) => {
                  req.once('drain', r);
                  req.once('close', r);
                });
            }
            if (!answered && !req.destroyed) req.end();
          })().catch(() => undefined);
        },
      );

    const GB = 1024 * MB;
    const chunked = await stream(GB, false);
    const declared = await stream(GB, true);
    console.info(
      `[uploads-attack ${kind}] 1 GB chunked: ${chunked.status} after ${chunked.ms} ms, ${chunked.sentMb.toFixed(1)} MB sent, RSS +${chunked.peakRssMb.toFixed(1)} MB, heap +${chunked.heapMb.toFixed(1)} MB; ` +
        `1 GB with Content-Length: ${declared.status} after ${declared.ms} ms, ${declared.sentMb.toFixed(1)} MB sent, RSS +${declared.peakRssMb.toFixed(1)} MB`,
    );
    for (const r of [chunked, declared]) {
      expect(r.status).toBe(413);
      expect(r.peakRssMb).toBeLessThan(100);
      expect(r.heapMb).toBeLessThan(100);
      expect(r.ms).toBeLessThan(5_000);
    }
    // Refused once the limit was passed, not after the whole gigabyte.
    expect(chunked.sentMb).toBeLessThan(limit / MB + 50);
    // A declared length past the limit is refused before the body is read at all.
    expect(declared.sentMb).toBeLessThan(50);
    // The server still answers afterwards.
    const ok = await fetch(`http://127.0.0.1:${port}/api/orders`, { headers: company.headers });
    expect(ok.status).toBe(200);
    await ok.arrayBuffer();

    // A client that ignores the answer and keeps sending is cut off shortly after (lingering close).
    const stubborn = await new Promise<{ sentMb: number; status: number }>((resolve) => {
      let sent = 0;
      let status = 0;
      const req = httpRequest({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/api/uploads?kind=document',
        headers: { ...company.headers, 'content-type': 'multipart/form-data; boundary=x' },
      });
      req.on('response', (res) => {
        status = res.statusCode ?? 0;
        res.resume();
      });
      const done = () => resolve({ sentMb: sent / MB, status });
      req.on('error', done);
      req.on('close', done);
      const block = Buffer.alloc(64 * 1024, 0x42);
      req.write('--x\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n%PDF-1.4\n');
      (async () => {
        while (!req.destroyed && sent < GB) {
          sent += block.length;
          if (!req.write(block))
            await new Promise<void>((r) => {
              req.once('drain', r);
              req.once('close', r);
            });
        }
        req.end();
      })().catch(done);
    });
    console.info(
      `[uploads-attack ${kind}] a client ignoring the 413 was cut off after ${stubborn.sentMb.toFixed(1)} MB`,
    );
    expect(stubborn.sentMb).toBeLessThan(limit / MB + 8 + 50);
    const connections = await new Promise<number>((r) => t.app.server.getConnections((_e, c) => r(c)));
    expect(connections).toBeLessThanOrEqual(1); // fetch's keep-alive connection at most
  }, 60_000);
});
