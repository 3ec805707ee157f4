const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A body's id fields (`_id`, `jobId`, `lawyerId`…): its other strings (a client key, a note) are the sender's. */
const ID_FIELD = /^_id$|Id$/;

/**
 * Lower-cases each uuid among a request's path parameters or query values, or a body's top-level id
 * fields. PostgreSQL reads a uuid in either case and writes it in lower case, and the routes compare ids
 * as written: `/api/userprofile?_id=` with the session's own id in capitals answered 403 where the same
 * id in lower case answered 200 (decision 2358).
 */
export function lowerCaseIds(part: unknown, names: RegExp | null = null, plainOnly = false): void {
  // A raw body (the webhook's, a 20 MB PDF) arrives here as a Buffer before any authentication, and
  // walking it would cost one entry per byte.
  if (!part || typeof part !== 'object' || Array.isArray(part) || ArrayBuffer.isView(part)) return;
  // A body: plain objects only. Not a query or the path's parameters: fast-querystring's query has a
  // prototype of its own (itself without one), and was left in capitals (403 for one's own _id).
  const proto = Object.getPrototypeOf(part);
  if (plainOnly && proto !== Object.prototype && proto !== null) return;
  const values = part as Record<string, unknown>;
  for (const [name, value] of Object.entries(values))
    if (
      typeof value === 'string' &&
      value.length === 36 &&
      (!names || names.test(name)) &&
      UUID.test(value) &&
      value !== value.toLowerCase()
    )
      values[name] = value.toLowerCase();
}

/** The body's id fields only. */
export const lowerCaseBodyIds = (body: unknown) => lowerCaseIds(body, ID_FIELD, true);
