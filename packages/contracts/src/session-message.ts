/**
 * The spec's session-timeout text on its own: the web's http client, which every page loads, needs only
 * this one, and importing the whole messages table would put ~3 KB gzip on the first route.
 */
export const SESSION_TIMEOUT_MESSAGE = 'Session timeout, please login again';
