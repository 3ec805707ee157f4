import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * The cookie that lets the server render a signed-in company's /cart (decision 2100). It carries the
 * same token the browser keeps for the API, but only the page renderer reads it, and only for GET /cart:
 * API routes take the bearer header alone, so the cookie can change nothing (no cross-site request
 * forgery). Path=/cart keeps it off every other request; HttpOnly keeps it from scripts.
 */
export const PAGE_SESSION_COOKIE = 'lm_page_session';
const PATH = '/cart';

const attributes = (request: FastifyRequest) =>
  `Path=${PATH}; HttpOnly; SameSite=Lax${request.protocol === 'https' ? '; Secure' : ''}`;

/** Sets the cookie on a sign-in answer; only companies have a page rendered with it. */
export function setPageSession(
  request: FastifyRequest,
  reply: FastifyReply,
  token: string,
  user: { userType: string },
  ttlHours: number,
) {
  if (user.userType !== 'company') return clearPageSession(request, reply);
  reply.header('set-cookie', `${PAGE_SESSION_COOKIE}=${token}; Max-Age=${ttlHours * 3600}; ${attributes(request)}`);
}

/** Ends it (logout, a sign-in as another role): a stale cookie must not render an earlier account's cart. */
export function clearPageSession(request: FastifyRequest, reply: FastifyReply) {
  reply.header('set-cookie', `${PAGE_SESSION_COOKIE}=; Max-Age=0; ${attributes(request)}`);
}

/** The token in a request's Cookie header, or null. */
export function readPageSession(cookieHeader: string | undefined): string | null {
  if (!cookieHeader) return null;
  for (const part of cookieHeader.split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === PAGE_SESSION_COOKIE) {
      const value = part.slice(at + 1).trim();
      // A JWT's three base64url parts; anything else is not ours.
      return /^[\w-]+\.[\w-]+\.[\w-]+$/.test(value) ? value : null;
    }
  }
  return null;
}
