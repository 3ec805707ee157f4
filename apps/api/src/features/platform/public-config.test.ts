import { afterAll, beforeAll, expect, it } from 'vitest';
import { UPLOAD_MAX_BYTES } from '@legalmarket/contracts/constants';
import { createTestApp, describeEachDb, type TestApp } from '../../../test/helpers.js';

// Decision 2311: the upload limits the server is configured with are served to the web.
describeEachDb('GET /api/public-config serves the upload limits', (kind) => {
  let configured: TestApp;
  let defaults: TestApp;
  beforeAll(async () => {
    configured = await createTestApp(kind, { UPLOAD_MAX_DOCUMENT_BYTES: String(2 * 1024 * 1024) });
    defaults = await createTestApp(kind);
  });
  afterAll(async () => {
    await configured.close();
    await defaults.close();
  });

  it('answers the configured limit, else the default', async () => {
    const limits = async (t: TestApp) =>
      (await t.app.inject({ method: 'GET', url: '/api/public-config' })).json().uploadMaxBytes as unknown;
    expect(await limits(configured)).toEqual({ image: UPLOAD_MAX_BYTES.image, document: 2 * 1024 * 1024 });
    expect(await limits(defaults)).toEqual(UPLOAD_MAX_BYTES);
  });
});
