import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';

/** The access key s3rver knows (its built-in account): any other key id is refused with 403. */
export const S3RVER_KEY = 'S3RVER';

export interface S3Server {
  endpoint: string;
  /** The environment that points the app at `bucket` on this server. */
  env(bucket: string): Record<string, string>;
  close(): Promise<void>;
}

/**
 * A real S3-protocol server (s3rver, pure JavaScript) on a free port, storing in a temporary directory,
 * with the given buckets. The app talks to it through the AWS SDK over HTTP like to MinIO or AWS.
 * s3rver checks the access key id but not the SigV4 signature itself (so a wrong secret is accepted).
 */
export async function startS3(buckets: string[]): Promise<S3Server> {
  const directory = await mkdtemp(path.join(tmpdir(), 'lm-s3rver-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: buckets.map((name) => ({ name })),
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    env: (bucket) => ({
      STORAGE: 's3',
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_BUCKET: bucket,
      S3_ACCESS_KEY_ID: S3RVER_KEY,
      S3_SECRET_ACCESS_KEY: S3RVER_KEY,
      S3_FORCE_PATH_STYLE: 'true',
    }),
    async close() {
      server.httpServer?.closeAllConnections();
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
