import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// nginx's default access log records `$request`, the whole line with its query: a document link's
// signature, a reset token or a confirmation code would sit in the proxy's log for anyone reading it.
describe('deploy/nginx.conf', () => {
  const conf = readFileSync(new URL('../../../../deploy/nginx.conf', import.meta.url), 'utf8');

  it('writes its access log in a format without the query string', () => {
    const access = [...conf.matchAll(/^\s*access_log\s+(\S+)(?:\s+(\w+))?\s*;/gm)];
    expect(access.length).toBeGreaterThan(0);
    for (const [, target, format] of access) {
      if (target === 'off') continue;
      expect(format, 'an access_log without a format uses nginx\'s "combined", with the query').toBeTruthy();
      const body = conf.match(new RegExp(`log_format\\s+${format}\\s+([^;]+);`))?.[1];
      expect(body, `log_format ${format}`).toBeTruthy();
      expect(body).not.toMatch(/\$(request|request_uri|args|query_string|arg_\w+)\b/);
      expect(body).toContain('$uri');
    }
  });
});
