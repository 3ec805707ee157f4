import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { and, eq, gt, isNotNull, isNull, ne, sql } from 'drizzle-orm';
import { SignJWT, jwtVerify } from 'jose';
import { messages, type UserType } from '@legalmarket/contracts';
import { cacheVersionsOf } from '../db/cache-versions.js';
import type { Db, Executor } from '../db/client.js';
import { sessions, twoFactor, users } from '../db/schema.js';
import type { Clock } from './clock.js';
import { AppError, forbidden, unauthorized } from './errors.js';

export interface AuthUser {
  id: string;
  userType: UserType;
  officialEmail: string;
  name: string;
  phoneNumber: string;
  verified: boolean;
  sessionId: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    user: AuthUser | null;
  }
}

/**
 * A password sign-in that finds, under the user row's lock, that two-factor was turned on since it asked:
 * the caller asks for the code instead. Uncaught it is the sign-in's usual 401.
 */
export class SecondFactorTurnedOn extends AppError {
  constructor() {
    super(401, messages.invalidCredentials);
  }
}

export interface Auth {
  /**
   * Starts a session and signs its token. The session is written under a share lock on the user row, and
   * only while the account is not deleted and, with `passwordHash` (a password sign-in), still has the
   * password just checked and the address signed in with, and no second factor on (else
   * SecondFactorTurnedOn): a password reset, an e-mail change's confirmation, an undo link, turning
   * two-factor on or a deletion (which lock the row, then revoke every other session) either commits
   * first and the sign-in is refused, or waits for it and then revokes the new session too.
   * `tx` runs it inside the caller's transaction (which took the lock itself).
   */
  issue(
    user: { id: string; userType: UserType; officialEmail: string; name: string; phoneNumber: string },
    guard?: { passwordHash?: string; tx?: Executor },
  ): Promise<{
    token: string;
    sessionId: string;
  }>;
  /**
   * Resolves a bearer token to the user, or null when missing, forged, expired or revoked. With the
   * request, the cache versions read for it are shared with its response's cache.
   */
  resolve(authorization: string | undefined, request?: FastifyRequest): Promise<AuthUser | null>;
  /**
   * The user of a live session by its id alone (no token): for the page cookie of decision 2100, which
   * names a session without carrying its token. Null when unknown, revoked or expired.
   */
  resolveSession(sessionId: string): Promise<AuthUser | null>;
  revokeSession(sessionId: string): Promise<void>;
  /**
   * Ends every session of the user, but `keep` when given (the session that made a change); answers how
   * many of them were live (not yet expired).
   */
  revokeAllSessions(tx: Executor, userId: string, keep?: string | null): Promise<number>;
  /** preHandler: any signed-in user (of the given roles when listed). */
  require(...roles: UserType[]): preHandlerAsyncHookHandler;
  /** preHandler: reads the user when a token is sent, lets guests through. */
  optional: preHandlerAsyncHookHandler;
  /** Verified sessions answered from memory, not, and the lookups made for them (read by the tests). */
  stats(): { hits: number; misses: number; lookups: number };
}

/**
 * A verified session is cached while no existing session or user changed (db/cache-versions.ts): a
 * logout, password reset or verification change anywhere ends it for the very next request, while a
 * login or a new account (inserts) leaves the sessions already verified alone. Decision 1500.
 */
const SESSION_CACHE_MAX = 10_000;
const SESSION_DEPENDS = ['sessions:changed', 'users:changed'] as const;

/**
 * The token of an `Authorization: Bearer <token>` header. The scheme is matched in any case (RFC 7235),
 * and quotes around the token are dropped: a client that kept the token with JSON.stringify sends
 * `Bearer "<token>"` (decision 2234). A JWT never holds a quote, so no token is read differently.
 */
function bearerToken(authorization: string | undefined): string | null {
  const m = /^bearer\s+(.+)$/i.exec(authorization?.trim() ?? '');
  if (!m) return null;
  const token = m[1]
    .trim()
    .replace(/^"(.*)"$/, '$1')
    .trim();
  return token || null;
}

/** The hooks made by `require` and `optional`, so the OpenAPI description can say which routes read a session. */
const sessionHooks = new WeakMap<object, 'required' | 'optional'>();

/**
 * Whether a route reads the bearer token: `required` when one of its hooks is `auth.require`, `optional`
 * when one is `auth.optional`, else null.
 */
export function sessionUse(route: { onRequest?: unknown; preValidation?: unknown; preHandler?: unknown }) {
  const hooks = [route.onRequest, route.preValidation, route.preHandler].flat();
  const uses = hooks.map((hook) => (typeof hook === 'function' ? sessionHooks.get(hook) : undefined));
  return uses.includes('required') ? 'required' : uses.includes('optional') ? 'optional' : null;
}

export function createAuth(deps: { db: Db; secret: string; clock: Clock; ttlHours: number }): Auth {
  const key = new TextEncoder().encode(deps.secret);
  // Imported once: given the bytes, jose imports them into WebCrypto again on every verify (half its cost).
  const verifyKey = crypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
  verifyKey.catch(() => undefined); // (a key WebCrypto refuses fails each verify, as jose's own import did)
  const versions = cacheVersionsOf(deps.db);
  /** Token → the user it resolved to, at `version`, never past `expiresAt`. */
  const verified = new Map<string, { user: AuthUser; version: number; expiresAt: number }>();
  /** Lookups under way, by version and token, shared by the requests that need the same one. */
  const inflight = new Map<string, Promise<{ user: AuthUser; expiresAt: number } | null>>();
  let hits = 0;
  let misses = 0;
  let lookups = 0;

  async function resolve(authorization: string | undefined, request?: FastifyRequest): Promise<AuthUser | null> {
    const token = bearerToken(authorization);
    if (!token) return null;
    const version = (await (request ? versions.readFor(request) : versions.read())).of(SESSION_DEPENDS);
    const hit = verified.get(token);
    if (hit) {
      if (hit.version === version && hit.expiresAt > deps.clock.now().getTime()) {
        hits += 1;
        return { ...hit.user };
      }
      verified.delete(token);
    }
    misses += 1;
    // A page sends its first requests together with one new token: they share one lookup, made after
    // all of them arrived at the versions read above (a logout since then moves the version again).
    const inflightKey = `${version}\u0000${token}`;
    let pending = inflight.get(inflightKey);
    if (!pending) {
      lookups += 1;
      pending = lookup(token).finally(() => inflight.delete(inflightKey));
      inflight.set(inflightKey, pending);
    }
    const user = await pending;
    if (user) {
      if (verified.size >= SESSION_CACHE_MAX) verified.clear();
      verified.set(token, { user: user.user, version, expiresAt: user.expiresAt });
    }
    return user ? { ...user.user } : null;
  }

  // Built once: every request with a new token runs it (on a server, a prepared statement and its plan).
  const sessionQuery = deps.db
    .select({
      id: users.id,
      userType: users.userType,
      officialEmail: users.officialEmail,
      name: users.name,
      phoneNumber: users.phoneNumber,
      verified: users.verified,
      expiresAt: sessions.expiresAt,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(sessions.id, sql.placeholder('sid')),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, sql`${sql.placeholder('now')}::timestamptz`),
      ),
    )
    .limit(1)
    .prepare('session_lookup');

  async function lookup(token: string): Promise<{ user: AuthUser; expiresAt: number } | null> {
    let claims: { sub?: string; sid?: unknown; exp?: number };
    try {
      const res = await jwtVerify(token, await verifyKey, {
        algorithms: ['HS256'],
        currentDate: deps.clock.now(),
        requiredClaims: ['exp', 'sub'],
      });
      claims = res.payload;
    } catch {
      return null;
    }
    if (typeof claims.sid !== 'string' || !claims.sub || !/^[0-9a-f-]{36}$/i.test(claims.sid)) return null;
    const rows = await sessionQuery.execute({ sid: claims.sid, now: deps.clock.now().toISOString() });
    const row = rows[0];
    if (!row || row.id !== claims.sub) return null;
    const { expiresAt, ...user } = row;
    return {
      user: { ...user, sessionId: claims.sid },
      expiresAt: Math.min(expiresAt.getTime(), (claims.exp ?? Infinity) * 1000),
    };
  }

  const attach = async (request: FastifyRequest) => {
    request.user = await resolve(request.headers.authorization, request);
  };
  const optional = async (request: FastifyRequest) => {
    await attach(request);
  };
  sessionHooks.set(optional, 'optional');

  return {
    stats: () => ({ hits, misses, lookups }),
    async issue(user, guard = {}) {
      const now = deps.clock.now();
      const expiresAt = new Date(now.getTime() + deps.ttlHours * 3600_000);
      const passwordOnly = guard.passwordHash !== undefined;
      const start = async (tx: Executor) => {
        const [live] = await tx
          .select({ id: users.id })
          .from(users)
          .where(
            and(
              eq(users.id, user.id),
              isNull(users.deletedAt),
              passwordOnly ? eq(users.passwordHash, guard.passwordHash!) : undefined,
              passwordOnly ? eq(users.officialEmail, user.officialEmail) : undefined,
            ),
          )
          .for('share');
        if (!live) throw unauthorized(messages.invalidCredentials);
        if (passwordOnly) {
          // A statement of its own, after the lock: it sees a second factor turned on by whoever held the row.
          const [on] = await tx
            .select({ userId: twoFactor.userId })
            .from(twoFactor)
            .where(and(eq(twoFactor.userId, user.id), isNotNull(twoFactor.enabledAt)))
            .limit(1);
          if (on) throw new SecondFactorTurnedOn();
        }
        const [row] = await tx.insert(sessions).values({ userId: user.id, expiresAt }).returning();
        return row;
      };
      const session = guard.tx ? await start(guard.tx) : await deps.db.transaction(start);
      const token = await new SignJWT({
        sid: session.id,
        userType: user.userType,
        officialEmail: user.officialEmail,
        phoneNumber: user.phoneNumber,
        name: user.name,
      })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(user.id)
        .setIssuedAt(Math.floor(now.getTime() / 1000))
        .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
        .sign(key);
      return { token, sessionId: session.id };
    },
    resolve,
    async resolveSession(sessionId) {
      const [row] = await sessionQuery.execute({ sid: sessionId, now: deps.clock.now().toISOString() });
      if (!row) return null;
      const { expiresAt: _expiresAt, ...user } = row;
      return { ...user, sessionId };
    },
    async revokeSession(sessionId) {
      await deps.db.update(sessions).set({ revokedAt: deps.clock.now() }).where(eq(sessions.id, sessionId));
    },
    async revokeAllSessions(tx, userId, keep) {
      const now = deps.clock.now();
      const ended = await tx
        .update(sessions)
        .set({ revokedAt: now })
        .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), keep ? ne(sessions.id, keep) : undefined))
        .returning({ expiresAt: sessions.expiresAt });
      return ended.filter((s) => s.expiresAt.getTime() > now.getTime()).length;
    },
    require: (...roles) => {
      const hook = async (request: FastifyRequest, _reply: FastifyReply) => {
        await attach(request);
        if (!request.user) throw unauthorized();
        if (roles.length && !roles.includes(request.user.userType)) throw forbidden();
      };
      sessionHooks.set(hook, 'required');
      return hook;
    },
    optional,
  };
}
