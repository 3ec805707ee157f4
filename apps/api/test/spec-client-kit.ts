import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';

/**
 * A client written only from the spec (issue 14): JSON headers, `Authorization: Bearer <userToken>`
 * when it has one, and `response.data` is the JSON body. Shared by spec-client.test.ts and
 * spec-audit.test.ts.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Data = any;
export interface Response {
  status: number;
  data: Data;
}

export function specClient(app: FastifyInstance, userToken?: string) {
  const headers = (extra: Record<string, string> = {}) => ({
    accept: 'application/json',
    ...(userToken ? { authorization: `Bearer ${userToken}` } : {}),
    ...extra,
  });
  const send = async (method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, body?: object) => {
    const res = await app.inject({
      method,
      url,
      headers: headers(body ? { 'content-type': 'application/json' } : {}),
      ...(body ? { payload: JSON.stringify(body) } : {}),
    });
    return { status: res.statusCode, data: res.body ? JSON.parse(res.body) : undefined } as Response;
  };
  /** A FormData body, as the profile and product forms send it. */
  const form = async (method: 'POST' | 'PUT' | 'PATCH', url: string, fields: Record<string, string | Blob>) => {
    const fd = new FormData();
    for (const [k, v] of Object.entries(fields)) {
      if (v instanceof Blob) fd.append(k, v, 'picture.png');
      else fd.append(k, v);
    }
    const encoded = new Request('http://spec.client/', { method, body: fd });
    const res = await app.inject({
      method,
      url,
      headers: headers({ 'content-type': encoded.headers.get('content-type')! }),
      payload: Buffer.from(await encoded.arrayBuffer()),
    });
    return { status: res.statusCode, data: JSON.parse(res.body) } as Response;
  };
  return {
    get: (url: string) => send('GET', url),
    post: (url: string, body?: object) => send('POST', url, body),
    put: (url: string, body?: object) => send('PUT', url, body),
    patch: (url: string, body: object) => send('PATCH', url, body),
    del: (url: string) => send('DELETE', url),
    form,
    patchForm: (url: string, fields: Record<string, string>) => form('PATCH', url, fields),
  };
}

/** The answer's body when its status is 2xx; fails the test (showing the body) otherwise. */
export const is2xx = (r: Response) => {
  expect(r.status, JSON.stringify(r.data)).toBeGreaterThanOrEqual(200);
  expect(r.status, JSON.stringify(r.data)).toBeLessThan(300);
  return r.data as Data;
};

/** A refusal as the spec's generic handler reads it: the status, and `response.data.message`. */
export const failsWith = (r: Response, status: number, message: string) => {
  expect(r.status, JSON.stringify(r.data)).toBe(status);
  expect(r.data.message).toBe(message);
};
