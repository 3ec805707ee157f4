import { describe, expect, it } from 'vitest';
import { lowerCaseBodyIds, lowerCaseIds } from './ids.js';

const UPPER = '9F8E7D6C-5B4A-4321-8FED-CBA987654321';

describe('lowerCaseIds', () => {
  it('lowers a uuid in a plain object and in a query without a prototype', () => {
    const body = { jobId: UPPER, note: UPPER };
    lowerCaseBodyIds(body);
    expect(body).toEqual({ jobId: UPPER.toLowerCase(), note: UPPER });
    const query = Object.assign(Object.create(null) as Record<string, string>, { _id: UPPER });
    lowerCaseIds(query);
    expect(query._id).toBe(UPPER.toLowerCase());
  });

  // Fastify's query (fast-querystring) has a prototype of its own, itself without one: walked all the same.
  it('lowers a uuid in a query shaped as Fastify parses one', () => {
    const query = Object.assign(Object.create(Object.create(null) as object) as Record<string, string>, { _id: UPPER });
    lowerCaseIds(query);
    expect(query._id).toBe(UPPER.toLowerCase());
  });

  // A raw body (the payment webhook's, the remuneration order's PDF) reaches preValidation as a Buffer
  // before any authentication: it is the sender's bytes, never walked entry by entry.
  it('leaves a Buffer, an array and a class instance as they came', () => {
    const raw = Object.assign(Buffer.from('{"jobId":"x"}'), { jobId: UPPER });
    lowerCaseBodyIds(raw);
    expect(raw.jobId).toBe(UPPER);
    const list = [UPPER];
    lowerCaseIds(list);
    expect(list[0]).toBe(UPPER);
    const instance = new (class {
      jobId = UPPER;
    })();
    lowerCaseBodyIds(instance);
    expect(instance.jobId).toBe(UPPER);
  });
});
