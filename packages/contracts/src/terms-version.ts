/**
 * The version of the Terms of use and Privacy policy the sign-up forms show (docs/decisions/2030).
 * Change it with the text of apps/web/src/features/legal/terms.tsx; sign-ups record the one accepted.
 * Here, free of zod, for the web's /terms and /privacy pages; privacy.ts re-exports it.
 */
export const TERMS_VERSION = '2026-11-27';
