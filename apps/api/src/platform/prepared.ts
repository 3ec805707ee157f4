import type { FastifyReply, FastifyRequest } from 'fastify';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';

/**
 * A JSON answer made once and sent many times: the bytes (no string encoding per request) and
 * brotli/gzip copies made the first time a client asks for them (not per request, as the compression
 * plugin would). Used by the catalogue copy and the remembered answers (platform/answers.ts).
 */
export interface PreparedBody {
  body: Buffer;
  encoded(encoding: Encoding): Buffer;
}
type Encoding = 'br' | 'gzip';

/** `effort`: 'max' for answers made a few times a day (the catalogue), 'fast' for per-user answers. */
export function prepare(json: string, effort: 'max' | 'fast' = 'fast'): PreparedBody {
  const body = Buffer.from(json);
  const copies: Partial<Record<Encoding, Buffer>> = {};
  return {
    body,
    encoded: (encoding) =>
      (copies[encoding] ??=
        encoding === 'br'
          ? brotliCompressSync(body, {
              params: {
                [zlibConstants.BROTLI_PARAM_QUALITY]: effort === 'max' ? 9 : 4,
                [zlibConstants.BROTLI_PARAM_SIZE_HINT]: body.length,
              },
            })
          : gzipSync(body, { level: effort === 'max' ? 9 : 6 })),
  };
}

/** Sends prepared JSON, compressed as the client accepts (from 1 KB); the compression plugin leaves it. */
export function sendPrepared(request: FastifyRequest, reply: FastifyReply, prepared: PreparedBody) {
  reply.type('application/json; charset=utf-8').header('vary', 'accept-encoding');
  const accepts = request.headers['accept-encoding'];
  if (accepts && prepared.body.length >= 1024) {
    for (const encoding of ['br', 'gzip'] as const) {
      if (acceptsEncoding(accepts, encoding))
        return reply.header('content-encoding', encoding).send(prepared.encoded(encoding));
    }
  }
  return reply.send(prepared.body);
}

/** Whether an Accept-Encoding header allows this coding (`;q=0` refuses it). */
export function acceptsEncoding(header: string, encoding: string) {
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (name !== encoding && name !== '*') continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return !q || Number(q.slice(2)) > 0;
  }
  return false;
}
