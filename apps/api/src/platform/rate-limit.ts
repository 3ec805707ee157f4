import { isIP } from 'node:net';
import { Redis } from 'ioredis';
import { LIMITS, TWO_FACTOR } from '@legalmarket/contracts';
import type { Clock } from './clock.js';
import { tooMany } from './errors.js';

interface Hit {
  count: number;
  /** Seconds until the window that holds this count ends. */
  retryAfter: number;
}

/**
 * Fixed-window counters. `hit` adds one and answers the new count; `peek` reads without adding.
 * Kept in Redis when REDIS_URL is set so every instance shares them, in memory otherwise.
 */
export interface RateLimitStore {
  hit(key: string, windowMs: number): Promise<Hit>;
  peek(key: string): Promise<Hit>;
  reset(key: string): Promise<void>;
  close(): Promise<void>;
}

export function memoryStore(clock: Clock): RateLimitStore {
  const map = new Map<string, { count: number; resetAt: number }>();
  const live = (key: string) => {
    const e = map.get(key);
    if (e && e.resetAt <= clock.now().getTime()) {
      map.delete(key);
      return undefined;
    }
    return e;
  };
  const answer = (e: { count: number; resetAt: number } | undefined): Hit =>
    e ? { count: e.count, retryAfter: (e.resetAt - clock.now().getTime()) / 1000 } : { count: 0, retryAfter: 0 };
  // Drop expired entries now and then so memory stays bounded.
  const sweep = setInterval(() => {
    for (const k of map.keys()) live(k);
  }, 60_000);
  sweep.unref();
  return {
    async hit(key, windowMs) {
      let e = live(key);
      if (!e) {
        e = { count: 0, resetAt: clock.now().getTime() + windowMs };
        map.set(key, e);
      }
      e.count += 1;
      return answer(e);
    },
    async peek(key) {
      return answer(live(key));
    },
    async reset(key) {
      map.delete(key);
    },
    async close() {
      clearInterval(sweep);
    },
  };
}

export function redisStore(url: string, prefix = 'lm:rl:'): RateLimitStore {
  const redis = new Redis(url, { maxRetriesPerRequest: 2, enableOfflineQueue: true, lazyConnect: false });
  redis.on('error', () => undefined);
  return {
    async hit(key, windowMs) {
      const k = prefix + key;
      const res = await redis.multi().incr(k).pexpire(k, windowMs, 'NX').pttl(k).exec();
      const count = Number(res?.[0]?.[1] ?? 0);
      const ttl = Number(res?.[2]?.[1] ?? windowMs);
      return { count, retryAfter: Math.max(ttl, 0) / 1000 };
    },
    async peek(key) {
      const k = prefix + key;
      const [count, ttl] = await Promise.all([redis.get(k), redis.pttl(k)]);
      return { count: Number(count ?? 0), retryAfter: Math.max(ttl, 0) / 1000 };
    },
    async reset(key) {
      await redis.del(prefix + key);
    },
    async close() {
      redis.disconnect();
    },
  };
}

/**
 * What the per-address limits count by: an IPv4 address as it is (also when written IPv4-mapped,
 * ::ffff:a.b.c.d), an IPv6 address by its /64 network. One subscriber line or server gets a whole /64
 * and may use any address in it, so counting single IPv6 addresses let one client send from 2^64 of
 * them past every limit (decision 2120).
 */
export function addressKey(ip: string): string {
  const bare = ip.replace(/%.*$/, '').toLowerCase();
  if (isIP(bare) !== 6) return bare;
  // Eight numbers: "::" expanded, a dotted IPv4 tail read as two groups.
  const groupsOf = (part: string) =>
    part
      ? part.split(':').flatMap((g) => {
          if (!g.includes('.')) return [parseInt(g, 16)];
          const [a, b, c, d] = g.split('.').map(Number);
          return [(a << 8) | b, (c << 8) | d];
        })
      : [];
  const [head, tail] = bare.split('::');
  const left = groupsOf(head);
  const right = tail === undefined ? [] : groupsOf(tail);
  const groups = [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff)
    return [groups[6] >> 8, groups[6] & 255, groups[7] >> 8, groups[7] & 255].join('.');
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

interface LimitRules {
  loginMaxFailures: number;
  loginWindowMs: number;
  ipMax: number;
  ipWindowMs: number;
  emailActionMax: number;
  emailActionWindowMs: number;
}

/** The abuse limits of the account routes, in one place. Throws a 429 with Retry-After when over. */
export function createLimits(store: RateLimitStore, rules: LimitRules, onLimited: (key: string) => void = () => {}) {
  const over = (key: string, h: Hit) => {
    onLimited(key);
    return tooMany(h.retryAfter);
  };
  return {
    rules,
    /** Every sensitive request from one address counts; generous, as offices and carriers share addresses. */
    async perAddress(bucket: string, ip: string) {
      const key = `ip:${bucket}:${addressKey(ip)}`;
      const h = await store.hit(key, rules.ipWindowMs);
      if (h.count > rules.ipMax) throw over(key, h);
    },
    /**
     * Login and other password checks: one try is counted before the password is evaluated, so
     * however many arrive at once, at most `loginMaxFailures` per window ever reach the slow hash
     * (checking first and counting after the hash let a burst of 40 through). A success refunds the
     * count with `loginSucceeded`.
     */
    async claimLoginAttempt(email: string) {
      const key = `login:${email}`;
      const h = await store.hit(key, rules.loginWindowMs);
      if (h.count > rules.loginMaxFailures) throw over(key, h);
    },
    loginSucceeded: (email: string) => store.reset(`login:${email}`),
    /**
     * Authenticator and recovery codes, per account (sign-in, step-up, disabling): counted before the
     * code is compared, as login tries are, so a burst never compares more than TWO_FACTOR.maxFailures
     * in a window; a right code refunds the count (decision 2020).
     */
    async claimSecondFactorAttempt(userId: string) {
      const key = `2fa:${userId}`;
      const h = await store.hit(key, TWO_FACTOR.windowMinutes * 60_000);
      if (h.count > TWO_FACTOR.maxFailures) throw over(key, h);
    },
    secondFactorSucceeded: (userId: string) => store.reset(`2fa:${userId}`),
    /**
     * E-mailed six-digit codes (password reset, payout change), per account and purpose: counted before
     * the code is compared, across every code mailed in the window, so asking for a new code buys no new
     * guesses (each code alone dies after LIMITS.codeMaxAttempts); a right code refunds the count.
     */
    async claimCodeAttempt(purpose: string, subject: string) {
      const key = `code:${purpose}:${subject}`;
      const h = await store.hit(key, rules.loginWindowMs);
      if (h.count > LIMITS.codeMaxAttempts) throw over(key, h);
    },
    codeSucceeded: (purpose: string, subject: string) => store.reset(`code:${purpose}:${subject}`),
    /**
     * E-mail sending actions (reset codes, confirmation links, payout codes) per purpose and subject: an
     * address, or an account's id where an address change must not restart the count (payout codes, data
     * exports, account deletion).
     */
    async perAccountAction(action: string, subject: string) {
      const key = `act:${action}:${subject}`;
      const h = await store.hit(key, rules.emailActionWindowMs);
      if (h.count > rules.emailActionMax) throw over(key, h);
    },
  };
}
export type Limits = ReturnType<typeof createLimits>;
