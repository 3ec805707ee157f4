import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { testConfig } from '../config.js';
import { appDeps, openRuntime, type Runtime } from '../runtime.js';

// The web build's service worker and manifest (docs/decisions/1840-service-worker-and-manifest.md).
describe('the service worker and the manifest', () => {
  let base: string;
  let rt: Runtime;
  let app: Awaited<ReturnType<typeof buildApp>>;
  beforeAll(async () => {
    base = await mkdtemp(path.join(tmpdir(), 'lm-sw-'));
    await writeFile(
      path.join(base, 'index.html'),
      '<!doctype html><html><head></head><body><div id="root"></div></body></html>',
    );
    await writeFile(path.join(base, 'sw.js'), 'self.addEventListener("fetch", () => {});');
    await writeFile(path.join(base, 'manifest.webmanifest'), '{"name":"LegalMarket"}');
    await writeFile(path.join(base, 'offline.html'), '<!doctype html><title>You are offline</title>');
    await mkdir(path.join(base, 'assets'));
    await writeFile(path.join(base, 'assets', 'index-a1.js'), 'export {};');
    rt = await openRuntime(testConfig({ SEED_CATALOGUE: 'false' }));
    app = await buildApp({ ...appDeps(rt), logger: false, webDist: base });
  });
  afterAll(async () => {
    await app?.close();
    await rt?.close();
    await rm(base, { recursive: true, force: true });
  });

  it('serves sw.js as a script checked on every visit, under the page policy that lets it register', async () => {
    const res = await app.inject({ url: '/sw.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toBe('no-cache');
    // A worker's script is allowed by worker-src, else script-src, else default-src: all 'self' here.
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toMatch(/script-src 'self'/);
    expect(csp).toMatch(/default-src 'self'/);
    expect(csp).not.toMatch(/worker-src/);
    // The page that registers it runs under the same policy.
    const page = await app.inject({ url: '/products' });
    expect(String(page.headers['content-security-policy'])).toMatch(/script-src 'self'/);
  });

  it('serves the manifest fresh and the offline page and hashed code as before', async () => {
    const manifest = await app.inject({ url: '/manifest.webmanifest' });
    expect(manifest.statusCode).toBe(200);
    expect(manifest.headers['content-type']).toMatch(/manifest\+json/);
    expect(manifest.headers['cache-control']).toBe('no-cache');
    const offline = await app.inject({ url: '/offline.html' });
    expect(offline.statusCode).toBe(200);
    expect(offline.headers['cache-control']).toBe('public, max-age=3600');
    const code = await app.inject({ url: '/assets/index-a1.js' });
    expect(code.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });
});
