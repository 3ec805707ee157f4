import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, describeEachDb, lastMailTo, signupAndLogin, sixDigits, type TestApp } from './helpers.js';
import { failsWith, is2xx, specClient } from './spec-client-kit.js';

/**
 * The lawyer's own id on the payment-details rows, as a client written only from the spec sends it
 * (decision 2350): blank, the text JavaScript makes of null and undefined, or stored with JSON quotes,
 * as the job page and Apply read it. `response.data` is the JSON body.
 */
describeEachDb('a spec client names the lawyer on the payment-details rows', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  const client = (userToken?: string) => specClient(t.app, userToken);
  const ACCOUNT = { accountNumber: '0123456789', accountName: 'Chidi Okeke', bank: 'GTBank' };

  it('add and edit payment details: the lawyer’s id left blank or stored with quotes, as the job page reads it', async () => {
    // lawyer-and-admin 8: "Payment add by mismatched id: 'Payment addition is unsuccessful.'" A client that
    // builds the call from a page without the id sends `lawyerId: null` or `?_id=null`; one that stored the
    // id with JSON.stringify sends it quoted. GET /job-api/job and Apply read these (decisions 2150, 2303);
    // the payment rows answered 400 "lawyerId must be a valid id" or "_id must be a valid id", so the
    // payment page saved nothing.
    const lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    const api = client(lawyer.token);
    const quoted = JSON.stringify(lawyer.id);
    const sends: Array<[string, object]> = [
      ['/api/add-payment-details', { lawyerId: null }],
      ['/api/add-payment-details', { lawyerId: '' }],
      ['/api/add-payment-details', { lawyerId: 'undefined' }],
      ['/api/add-payment-details', { lawyerId: quoted }],
      ['/api/add-payment-details?_id=', {}],
      ['/api/add-payment-details?_id=null', {}],
      ['/api/add-payment-details?_id=undefined', {}],
    ];
    for (const [url, ids] of sends) {
      const added = await api.post(url, { ...ACCOUNT, ...ids });
      expect(is2xx(added).message, `${url} ${JSON.stringify(ids)}`).toBe('You have successfully added payment details');
    }
    expect(is2xx(await api.get('/api/get-payment-details')).lawyer.accountDetails).toHaveLength(1);

    // The edit row ("same fields") reads them the same way.
    is2xx(await api.post('/api/send-otp'));
    is2xx(await api.post('/api/confirm-otp', { OTP: sixDigits((await lastMailTo(t, lawyer.email))!.text) }));
    const edited = is2xx(
      await api.patch('/api/edit-payment-details?_id=null', {
        ...ACCOUNT,
        accountNumber: '9876543219',
        lawyerId: null,
      }),
    );
    expect(edited.lawyerUpdate.accountDetails[0].accountNumber).toBe('9876543219');

    // Another lawyer's id, quoted or not, is still the mismatched id; a text that is no id is named.
    const other = await signupAndLogin(t, 'lawyer', { verified: true });
    const otherApi = client(other.token);
    for (const lawyerId of [lawyer.id, quoted])
      failsWith(
        await otherApi.post('/api/add-payment-details', { ...ACCOUNT, lawyerId }),
        403,
        'Payment addition is unsuccessful.',
      );
    failsWith(
      await otherApi.post(`/api/add-payment-details?_id=${encodeURIComponent(quoted)}`, ACCOUNT),
      403,
      'Payment addition is unsuccessful.',
    );
    failsWith(
      await otherApi.post('/api/add-payment-details', { ...ACCOUNT, lawyerId: '12345' }),
      400,
      'lawyerId must be a valid id',
    );
    expect(is2xx(await otherApi.get('/api/get-payment-details')).lawyer.accountDetails).toEqual([]);
  });
});
