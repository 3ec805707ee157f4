import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { isSafeKey, type Storage } from './storage.js';

export interface S3StorageOptions {
  /** An S3-compatible server (MinIO, Ceph, R2...); AWS S3 itself when absent. */
  endpoint?: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** `http://host/bucket/key` instead of `http://bucket.host/key`: MinIO and most self-hosted stores. */
  forcePathStyle?: boolean;
}

/** The bucket could not be used at start-up: the message says which setting to look at. */
export class StorageStartError extends Error {}

interface SdkError {
  name?: string;
  code?: string;
  message?: string;
  $metadata?: { httpStatusCode?: number };
}

/**
 * Uploads kept in a bucket of an S3-compatible store, one object per key at the bucket's root. The
 * bucket is checked here (HeadBucket), so a wrong bucket, endpoint or key stops the start-up with one
 * line instead of failing the first upload; it is never created (docs/decisions/0405-s3-storage.md).
 */
export async function s3Storage(o: S3StorageOptions): Promise<Storage & { close(): void }> {
  const client = new S3Client({
    endpoint: o.endpoint,
    region: o.region,
    forcePathStyle: o.forcePathStyle ?? false,
    credentials: { accessKeyId: o.accessKeyId, secretAccessKey: o.secretAccessKey },
    // Stores other than AWS (older MinIO, Ceph, R2, B2) refuse or mishandle the CRC32 headers the SDK
    // adds to every request since 2025; send them only where the operation requires them.
    ...(o.endpoint ? { requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED' } : {}),
    // A store that stops answering must not hang the start-up, an upload or a download forever.
    requestHandler: { connectionTimeout: 5_000, socketTimeout: 60_000 },
  });
  const Bucket = o.bucket;

  try {
    await client.send(new HeadBucketCommand({ Bucket }));
  } catch (err) {
    client.destroy();
    throw new StorageStartError(startErrorMessage(o, err as SdkError));
  }

  return {
    async put(key, data) {
      if (!isSafeKey(key)) throw new Error('unsafe storage key');
      // One PUT: the object appears whole or not at all, as the local store's rename does.
      await client.send(new PutObjectCommand({ Bucket, Key: key, Body: data, ContentLength: data.length }));
    },
    async get(key) {
      if (!isSafeKey(key)) return null;
      let res;
      try {
        res = await client.send(new GetObjectCommand({ Bucket, Key: key }));
      } catch (err) {
        if ((err as SdkError).name === 'NoSuchKey') return null;
        throw err;
      }
      const body = res.Body;
      if (!(body instanceof Readable)) throw new Error('S3 answered GetObject without a readable body');
      if (res.ContentLength === undefined) {
        // A gateway that streams without a length: read it whole so the download still says its size.
        const bytes = Buffer.from(await body.transformToByteArray());
        return { stream: Readable.from([bytes]), size: bytes.length };
      }
      return { stream: body, size: res.ContentLength };
    },
    async remove(key) {
      if (isSafeKey(key)) await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },
    close() {
      client.destroy();
    },
  };
}

function startErrorMessage(o: S3StorageOptions, err: SdkError): string {
  const where = `bucket "${o.bucket}" at ${o.endpoint ?? `AWS S3 (${o.region})`}`;
  const status = err.$metadata?.httpStatusCode;
  // HEAD answers have no body: the SDK names a 403 "Unknown", which says nothing.
  const name = err.name && !['Error', 'Unknown', 'UnknownError'].includes(err.name) ? err.name : undefined;
  const what = [status, name, err.code].filter(Boolean).join(' ');
  if (status === 404) return `STORAGE=s3: ${where} does not exist (${what}); create it first, the server never does`;
  if (status === 401 || status === 403)
    return `STORAGE=s3: ${where} refused the credentials (${what}); check S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY and the key's rights on the bucket`;
  if (status === 301 || status === 400)
    return `STORAGE=s3: ${where} answered ${what}; check S3_REGION (${o.region}), S3_ENDPOINT and S3_FORCE_PATH_STYLE`;
  const detail = err.message || err.code || err.name || 'no answer';
  if (!status) return `STORAGE=s3: could not reach ${where}: ${detail}; check S3_ENDPOINT`;
  return `STORAGE=s3: ${where} could not be checked (${what}): ${detail}`;
}
