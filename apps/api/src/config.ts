import { z } from 'zod';
import { UPLOAD_MAX_BYTES } from '@legalmarket/contracts/constants';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');
const int = (def: number, min = 0) => z.coerce.number().int().min(min).default(def);

/**
 * Every environment variable the server reads, validated once at start-up. Nothing else reads
 * `process.env`. Each one is documented in the README's configuration table.
 */
const configSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: int(3000).pipe(z.number().max(65535)),
    /** Unset: every interface in production, only this machine otherwise (see loadConfig). */
    HOST: z.string().optional(),
    PUBLIC_URL: z.url().optional(),
    DATA_DIR: z.string().default('./data'),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
      .optional(),
    /** PostgreSQL schema to work in (created when missing); the server's search_path default otherwise. */
    DATABASE_SCHEMA: z
      .string()
      .regex(/^[a-z_][a-z0-9_]{0,62}$/, 'must be a lower-case SQL identifier (letters, digits, _)')
      .optional(),
    DATABASE_POOL_SIZE: int(10, 1),
    /** Milliseconds to wait for a new PostgreSQL connection before the request fails (503). */
    DATABASE_CONNECT_TIMEOUT_MS: int(5000, 1),
    /** Memory for cached signed-in responses (platform/response-cache.ts); 0 turns them off. */
    ANSWER_CACHE_MB: int(32, 0),
    JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
    TOKEN_TTL_HOURS: int(12, 1),
    TRUST_PROXY: bool.default(false),
    /** Seconds the event loop may stand still before the process ends itself (platform/watchdog.ts). */
    STALL_EXIT_SECONDS: int(30, 1),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    // e-mail
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
      .optional(),
    MAIL_FROM: z.string().default('LegalMarket <no-reply@legalmarket.ng>'),
    MAIL_POLL_MS: int(2000, 50),
    // accounts
    ADMIN_INVITE_CODE: z.string().min(12, 'must be at least 12 characters').optional(),
    SUPPORT_PHONE: z
      .string()
      .regex(/^\+?\d{7,15}$/, 'must be a phone number in international form, digits only')
      .default('2348000000000'),
    SUPPORT_EMAIL: z.email().default('support@legalmarket.ng'),
    /** Our social accounts; the footer links only those set (none by default). */
    SOCIAL_X_URL: z.url({ protocol: /^https$/ }).optional(),
    SOCIAL_LINKEDIN_URL: z.url({ protocol: /^https$/ }).optional(),
    SOCIAL_INSTAGRAM_URL: z.url({ protocol: /^https$/ }).optional(),
    SOCIAL_FACEBOOK_URL: z.url({ protocol: /^https$/ }).optional(),
    // rate limits
    REDIS_URL: z
      .string()
      .regex(/^rediss?:\/\//, 'must start with redis://')
      .optional(),
    LOGIN_MAX_FAILURES: int(10, 1),
    LOGIN_WINDOW_MINUTES: int(15, 1),
    IP_MAX_REQUESTS: int(300, 1),
    IP_WINDOW_MINUTES: int(15, 1),
    EMAIL_ACTION_MAX: int(5, 1),
    // files
    STORAGE: z.enum(['local', 's3']).default('local'),
    /** S3-compatible store (STORAGE=s3): AWS when S3_ENDPOINT is unset, MinIO or another store otherwise. */
    S3_ENDPOINT: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional(),
    S3_REGION: z.string().default('us-east-1'),
    S3_BUCKET: z.string().optional(),
    S3_ACCESS_KEY_ID: z.string().optional(),
    S3_SECRET_ACCESS_KEY: z.string().optional(),
    S3_FORCE_PATH_STYLE: bool.default(false),
    UPLOAD_MAX_IMAGE_BYTES: int(UPLOAD_MAX_BYTES.image, 1),
    UPLOAD_MAX_DOCUMENT_BYTES: int(UPLOAD_MAX_BYTES.document, 1),
    REMUNERATION_ORDER_KEY: z.string().default('legal-practitioners-remuneration-order-2023.pdf'),
    // payments
    PAYMENT_PROVIDER: z.enum(['sandbox', 'flutterwave']).default('sandbox'),
    FLW_PUBLIC_KEY: z.string().optional(),
    FLW_SECRET_KEY: z.string().optional(),
    FLW_SECRET_HASH: z.string().optional(),
    FLW_SUBACCOUNT_ID: z.string().optional(),
    FLW_API_URL: z.url().default('https://api.flutterwave.com'),
    SEED_CATALOGUE: bool.default(true),
    /** The built web app to serve; apps/web/dist by default. */
    WEB_DIST: z.string().optional(),
  })
  .superRefine((c, ctx) => {
    if (c.NODE_ENV === 'production' && !c.JWT_SECRET)
      ctx.addIssue({ code: 'custom', path: ['JWT_SECRET'], message: 'is required in production' });
    if (c.PAYMENT_PROVIDER === 'flutterwave')
      for (const k of ['FLW_PUBLIC_KEY', 'FLW_SECRET_KEY', 'FLW_SECRET_HASH'] as const)
        if (!c[k])
          ctx.addIssue({ code: 'custom', path: [k], message: 'is required when PAYMENT_PROVIDER=flutterwave' });
    if (c.STORAGE === 's3')
      for (const k of ['S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const)
        if (!c[k]) ctx.addIssue({ code: 'custom', path: [k], message: 'is required when STORAGE=s3' });
  });

export type Config = z.infer<typeof configSchema> & { PUBLIC_URL: string; HOST: string };

export class ConfigError extends Error {}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = configSchema.safeParse(cleaned);
  if (!parsed.success) {
    const list = parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ');
    throw new ConfigError(`Invalid configuration: ${list}`);
  }
  const c = parsed.data;
  return {
    ...c,
    // A development server shows every mailed code at /dev/mailbox: it answers only this machine unless
    // HOST says otherwise; production (behind its proxy or in a container) listens on every interface.
    HOST: c.HOST ?? (c.NODE_ENV === 'production' ? '0.0.0.0' : '127.0.0.1'),
    PUBLIC_URL: (c.PUBLIC_URL ?? `http://localhost:${c.PORT}`).replace(/\/$/, ''),
  };
}

/** Config for tests: the defaults plus overrides, never the real environment. */
export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: 'memory://', ...overrides });
}
