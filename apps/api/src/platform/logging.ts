import pino, { type DestinationStream, type Logger } from 'pino';

const SECRET_QUERY = /([?&](?:token|resetToken|code|otp|signature)=)[^&#]*/gi;

/** Strips secrets carried in query strings (reset grants, codes) before a URL is logged. */
export const redactUrl = (url: string) => url.replace(SECRET_QUERY, '$1[redacted]');

/**
 * Structured JSON lines with ISO UTC time. Passwords, tokens, codes and card fields are redacted
 * wherever they appear in a logged object; URLs lose secret query values.
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers.cookie',
          '*.password',
          '*.passwordConfirm',
          '*.token',
          '*.resetToken',
          '*.otp',
          '*.code',
          '*.cardNumber',
          '*.cvv',
          '*.pin',
          'password',
          'token',
        ],
        censor: '[redacted]',
      },
      serializers: {
        req: (req: { method: string; url: string; ip?: string; socket?: { remoteAddress?: string } }) => ({
          method: req.method,
          url: redactUrl(req.url),
          remoteAddress: req.ip ?? req.socket?.remoteAddress,
        }),
      },
    },
    destination,
  );
}
