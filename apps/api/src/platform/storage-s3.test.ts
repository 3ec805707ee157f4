import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, testConfig } from '../config.js';
import { s3Storage, StorageStartError, type S3StorageOptions } from './storage-s3.js';
import type { Storage } from './storage.js';
import { createTestApp, describeEachDb, signupAndLogin, type TestApp } from '../../test/helpers.js';
import { freePort, startServer } from '../../test/reliability/process.js';
import { S3RVER_KEY, startS3, type S3Server } from '../../test/s3-server.js';
import { multipart, pdfBytes, pngBytes } from '../../test/upload-helpers.js';

/** Issue 8, item 8: uploads in an S3-compatible bucket (STORAGE=s3), against a real S3-protocol server. */

const BUCKET = 'legalmarket-uploads';

async function readAll(stream: Readable) {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.from(c as Uint8Array));
  return Buffer.concat(chunks);
}

describe('STORAGE=s3 configuration', () => {
  it('names every missing S3 variable in one line', () => {
    expect(() => loadConfig({ STORAGE: 's3' })).toThrow(ConfigError);
    try {
      loadConfig({ STORAGE: 's3', S3_ENDPOINT: 'minio:9000' });
    } catch (err) {
      const m = (err as Error).message;
      expect(m).not.toContain('\n');
      expect(m).toMatch(/^Invalid configuration: /);
      for (const v of ['S3_ENDPOINT', 'S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY']) expect(m).toContain(v);
      expect(m).toContain('is required when STORAGE=s3');
    }
  });

  it('keeps local storage the default and reads the S3 settings', () => {
    expect(loadConfig({}).STORAGE).toBe('local');
    const c = loadConfig({
      STORAGE: 's3',
      S3_ENDPOINT: 'http://minio:9000',
      S3_BUCKET: 'b',
      S3_ACCESS_KEY_ID: 'k',
      S3_SECRET_ACCESS_KEY: 's',
      S3_FORCE_PATH_STYLE: 'true',
    });
    expect(c).toMatchObject({ STORAGE: 's3', S3_REGION: 'us-east-1', S3_FORCE_PATH_STYLE: true, S3_BUCKET: 'b' });
  });
});

describe('s3Storage against s3rver', () => {
  let s3: S3Server;
  let options: S3StorageOptions;
  let storage: Storage & { close(): void };
  let raw: S3Client;
  beforeAll(async () => {
    s3 = await startS3([BUCKET]);
    options = {
      endpoint: s3.endpoint,
      region: 'us-east-1',
      bucket: BUCKET,
      accessKeyId: S3RVER_KEY,
      secretAccessKey: S3RVER_KEY,
      forcePathStyle: true,
    };
    storage = await s3Storage(options);
    raw = new S3Client({
      endpoint: s3.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: S3RVER_KEY, secretAccessKey: S3RVER_KEY },
    });
  });
  afterAll(async () => {
    storage?.close();
    raw?.destroy();
    await s3?.close();
  });

  it('puts, gets and removes binary data, and the object is in the bucket', async () => {
    // Every byte value, CR/LF and NULs, and enough to take several chunks.
    const data = Buffer.concat([Buffer.from(Array.from({ length: 256 }, (_, i) => i)), randomBytes(300_000)]);
    await storage.put('round-trip.bin', data);

    const got = await storage.get('round-trip.bin');
    expect(got?.size).toBe(data.length);
    expect(Buffer.compare(await readAll(got!.stream), data)).toBe(0);

    // Straight from the bucket, not through the store: it really is there.
    const direct = await raw.send(new GetObjectCommand({ Bucket: BUCKET, Key: 'round-trip.bin' }));
    expect(Buffer.compare(Buffer.from(await direct.Body!.transformToByteArray()), data)).toBe(0);

    // Replacing a key replaces the object.
    await storage.put('round-trip.bin', Buffer.from('second'));
    const again = await storage.get('round-trip.bin');
    expect((await readAll(again!.stream)).toString()).toBe('second');

    await storage.remove('round-trip.bin');
    expect(await storage.get('round-trip.bin')).toBeNull();
    // Removing what is gone is not an error.
    await storage.remove('round-trip.bin');
  });

  it('answers null for a missing key', async () => {
    expect(await storage.get('never-stored.png')).toBeNull();
  });

  it('refuses unsafe keys: nothing written, nothing read, nothing removed', async () => {
    await storage.put('kept.txt', Buffer.from('kept'));
    for (const key of ['../kept.txt', 'a/../kept.txt', '/kept.txt', '.hidden', 'dir/kept.txt', '', 'x'.repeat(300)]) {
      await expect(storage.put(key, Buffer.from('evil'))).rejects.toThrow('unsafe storage key');
      expect(await storage.get(key)).toBeNull();
      await storage.remove(key);
    }
    const list = await raw.send(new ListObjectsV2Command({ Bucket: BUCKET }));
    expect((list.Contents ?? []).map((o) => o.Key)).toEqual(['kept.txt']);
    expect((await readAll((await storage.get('kept.txt'))!.stream)).toString()).toBe('kept');
    await storage.remove('kept.txt');
  });

  it('stops at start-up with one clear line for a missing bucket, a wrong key or no server', async () => {
    const fail = async (o: Partial<S3StorageOptions>) => {
      const err = await s3Storage({ ...options, ...o }).then(
        (s) => {
          s.close();
          return null;
        },
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(StorageStartError);
      const m = (err as Error).message;
      expect(m).not.toContain('\n');
      return m;
    };
    expect(await fail({ bucket: 'no-such-bucket' })).toMatch(
      /^STORAGE=s3: bucket "no-such-bucket" at http:\/\/127\.0\.0\.1:\d+ does not exist \(404.*\); create it first/,
    );
    expect(await fail({ accessKeyId: 'WRONGKEY' })).toMatch(
      /^STORAGE=s3: bucket "legalmarket-uploads" at .* refused the credentials \(403\); check S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY/,
    );
    // A port nothing listens on: one the system just handed out and took back (any fixed port lies in
    // the range every suite's listen(0) draws from, where a neighbouring suite's server may hold it).
    const closed = await freePort();
    expect(await fail({ endpoint: `http://127.0.0.1:${closed}` })).toMatch(
      new RegExp(
        `^STORAGE=s3: could not reach bucket "legalmarket-uploads" at http://127\\.0\\.0\\.1:${closed}: .*ECONNREFUSED.*; check S3_ENDPOINT$`,
      ),
    );
  });

  it('a server started on a missing bucket exits with that line instead of listening', async () => {
    const err = await startServer({ DATA_DIR: 'memory://', ...s3.env('missing-bucket') }).then(
      async (server) => {
        await server.kill();
        return null;
      },
      (e: Error) => e,
    );
    expect(err?.message).toMatch(/^server exited with 1/);
    expect(err?.message).toMatch(
      /LegalMarket failed to start: STORAGE=s3: bucket "missing-bucket" at http:\/\/127\.0\.0\.1:\d+ does not exist/,
    );
  }, 90_000);
});

describeEachDb('uploads kept in S3', (kind) => {
  let s3: S3Server;
  let raw: S3Client;
  let dataDir: string;
  let onS3: TestApp;
  let onDisk: TestApp;
  let s3Company: Awaited<ReturnType<typeof signupAndLogin>>;
  let diskCompany: Awaited<ReturnType<typeof signupAndLogin>>;
  beforeAll(async () => {
    s3 = await startS3([BUCKET]);
    raw = new S3Client({
      endpoint: s3.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: S3RVER_KEY, secretAccessKey: S3RVER_KEY },
    });
    dataDir = await mkdtemp(path.join(tmpdir(), 'lm-local-uploads-'));
    onS3 = await createTestApp(kind, s3.env(BUCKET));
    onDisk = await createTestApp(kind, { DATA_DIR: dataDir });
    s3Company = await signupAndLogin(onS3, 'company');
    diskCompany = await signupAndLogin(onDisk, 'company');
  }, 60_000);
  afterAll(async () => {
    await onS3?.close();
    await onDisk?.close();
    raw?.destroy();
    await s3?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('chooses the store from STORAGE', () => {
    expect(testConfig(s3.env(BUCKET)).STORAGE).toBe('s3');
    expect(onDisk.config.STORAGE).toBe('local');
  });

  const cases = [
    { kind: 'image', file: { data: pngBytes(40, 40, 30_000), filename: 'Logo (final).png', type: 'image/png' } },
    { kind: 'document', file: { data: pdfBytes('Engagement letter'), filename: 'Engagement.pdf' } },
  ] as const;

  for (const c of cases)
    it(`stores an uploaded ${c.kind} in the bucket and serves it back like local storage does`, async () => {
      const uploadTo = async (t: TestApp, headers: Record<string, string>) => {
        const body = await multipart([{ name: 'file', file: c.file }]);
        const res = await t.app.inject({
          method: 'POST',
          url: `/api/uploads?kind=${c.kind}`,
          headers: { ...body.headers, ...headers },
          payload: body.payload,
        });
        expect(res.statusCode, res.body).toBe(201);
        const url = res.json().data.url as string;
        const served = await t.app.inject({ method: 'GET', url, headers });
        expect(served.statusCode).toBe(200);
        return { key: url.split('/').pop()!, served };
      };
      const viaS3 = await uploadTo(onS3, s3Company.headers);
      const viaDisk = await uploadTo(onDisk, diskCompany.headers);

      // In the bucket under the upload's key, with the uploaded bytes.
      const stored = await raw.send(new GetObjectCommand({ Bucket: BUCKET, Key: viaS3.key }));
      expect(Buffer.compare(Buffer.from(await stored.Body!.transformToByteArray()), c.file.data)).toBe(0);

      // Served back with the same bytes and the same headers as from local disk.
      expect(Buffer.compare(viaS3.served.rawPayload, c.file.data)).toBe(0);
      expect(Buffer.compare(viaDisk.served.rawPayload, c.file.data)).toBe(0);
      const headers = (h: Record<string, unknown>) => {
        const { date: _date, ...rest } = h;
        return rest;
      };
      expect(headers(viaS3.served.headers)).toEqual(headers(viaDisk.served.headers));
      expect(viaS3.served.headers['content-length']).toBe(String(c.file.data.length));
    });
});
