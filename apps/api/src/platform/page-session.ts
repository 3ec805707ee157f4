import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Auth } from './auth.js';
import { safeEqual } from './tokens.js';

/**
 * The cookie that lets the server render a signed-in company's /cart (decision 2100). It names the
 * session and carries an HMAC of that name: not the API's bearer token, so it is no credential for
 * any API call (left behind by a logout that failed offline, it opens nothing but that page), and the
 * page renderer alone reads it, for GET /cart. Path=/cart keeps it off every other request; HttpOnly
 * keeps it from scripts; Secure whenever the site is served over https.
 */
export const PAGE_SESSION_COOKIE = 'lm_page_session';
const PATH = '/cart';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export interface PageSessions {
  /** Sets the cookie on a sign-in answer; only a company has a page rendered with it. */
  set(request: FastifyRequest, reply: FastifyReply, session: { sessionId: string; userType: string }): void;
  /** Ends it (logout, a sign-in as another role): a stale cookie must not render an earlier account's cart. */
  clear(request: FastifyRequest, reply: FastifyReply): void;
  /** The company whose live session a request's Cookie header names, or null. */
  companyOf(cookieHeader: string | undefined): Promise<string | null>;
}

export function createPageSessions(deps: {
  auth: Auth;
  hashToken: (token: string) => string;
  ttlHours: number;
  publicUrl: string;
}): PageSessions {
  const sign = (sessionId: string) => deps.hashToken(`page-session:${sessionId}`);
  const attributes = (request: FastifyRequest) =>
    `Path=${PATH}; HttpOnly; SameSite=Lax${
      deps.publicUrl.startsWith('https:') || request.protocol === 'https' ? '; Secure' : ''
    }`;

  /** The session id a cookie names when its HMAC is ours, or null. */
  function read(cookieHeader: string | undefined): string | null {
    if (!cookieHeader) return null;
    for (const part of cookieHeader.split(';')) {
      const at = part.indexOf('=');
      if (at <= 0 || part.slice(0, at).trim() !== PAGE_SESSION_COOKIE) continue;
      const [sessionId, mac, ...rest] = part
        .slice(at + 1)
        .trim()
        .split('.');
      if (rest.length || !sessionId || !mac || !UUID.test(sessionId)) return null;
      return safeEqual(mac, sign(sessionId)) ? sessionId : null;
    }
    return null;
  }

  const clear = (request: FastifyRequest, reply: FastifyReply) => {
    reply.header('set-cookie', `${PAGE_SESSION_COOKIE}=; Max-Age=0; ${attributes(request)}`);
  };

  return {
    set(request, reply, session) {
      if (session.userType !== 'company') return clear(request, reply);
      const value = `${session.sessionId}.${sign(session.sessionId)}`;
      reply.header(
        'set-cookie',
        `${PAGE_SESSION_COOKIE}=${value}; Max-Age=${deps.ttlHours * 3600}; ${attributes(request)}`,
      );
    },
    clear,
    async companyOf(cookieHeader) {
      const sessionId = read(cookieHeader);
      const user = sessionId ? await deps.auth.resolveSession(sessionId) : null;
      return user?.userType === 'company' ? user.id : null;
    },
  };
}
