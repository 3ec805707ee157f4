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

  it('logs the new-password page without the reset token its path carries', () => {
    const map = conf.match(/map\s+\$uri\s+\$(\w+)\s*\{([\s\S]*?)\n\}/);
    expect(map, 'a map from $uri to the logged path').toBeTruthy();
    const [, variable, body] = map!;
    for (const [, format] of conf.matchAll(/log_format\s+\w+\s+([^;]+);/g)) expect(format).toContain(`$${variable}`);
    // nginx's map: the first matching regex gives the value, with its named captures; else the default.
    const entries = [...body.matchAll(/"~([^"]+)"\s+"([^"]+)";/g)].map(([, re, value]) => ({
      re: new RegExp(re),
      value,
    }));
    const logged = (uri: string) => {
      for (const { re, value } of entries) {
        const m = re.exec(uri);
        if (m) return value.replace(/\$\{(\w+)\}/g, (_, name: string) => m.groups?.[name] ?? '');
      }
      return uri;
    };
    const token = 'q3Vx9-token-of-43-characters-kept-secret_AbC';
    expect(logged(`/new-password/${token}/ada%40example.ng`)).toBe('/new-password/[redacted]/ada%40example.ng');
    expect(logged('/products')).toBe('/products');
  });
});
