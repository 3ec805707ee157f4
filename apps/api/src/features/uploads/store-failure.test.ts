import { expect, it } from 'vitest';
import { transientStoreFailure } from './service.js';

const failure = (code: string) => Object.assign(new Error(code), { code });

it('a full disk, an I/O error, too many open files or a socket failure is worth sending again', () => {
  for (const code of ['ENOSPC', 'EIO', 'EMFILE', 'ECONNRESET', 'ETIMEDOUT'])
    expect(transientStoreFailure(failure(code)), code).toBe(true);
  expect(transientStoreFailure(Object.assign(new Error('x'), { $metadata: { httpStatusCode: 503 } }))).toBe(true);
});

it('a permission, a missing directory or an S3 4xx is not', () => {
  for (const code of ['EACCES', 'ENOENT', 'EROFS']) expect(transientStoreFailure(failure(code)), code).toBe(false);
  const denied = Object.assign(new Error('Access Denied'), {
    name: 'AccessDenied',
    $metadata: { httpStatusCode: 403 },
  });
  expect(transientStoreFailure(denied)).toBe(false);
  expect(transientStoreFailure(new TypeError('bug'))).toBe(false);
});
