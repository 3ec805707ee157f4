import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { and, eq, isNotNull } from 'drizzle-orm';
import { messages, vatIncludedKobo } from '@legalmarket/contracts';
import { emailOutbox, jobs, orders, users } from '../../db/schema.js';
import { describeEachDb, signupAndLogin, type TestApp } from '../../../test/helpers.js';
import { createLoggedTestApp, insertProduct } from '../../../test/commerce-helpers.js';
import { flutterwaveStandIn, listenStandIn } from '../../../test/flutterwave-standin.js';
import { createLedger } from './ledger.js';
import { pdfText, startSmtp } from '../../../test/document-helpers.js';

type Login = Awaited<ReturnType<typeof signupAndLogin>>;

/** The PDF part of a MIME message (nodemailer sends it base64). */
function pdfPartOf(raw: string) {
  const m = /Content-Type: application\/pdf;[^]*?name="?([^"\r\n]+)"?[^]*?\r\n\r\n([A-Za-z0-9+/=\r\n]+)/.exec(raw);
  return m ? { filename: m[1], bytes: Buffer.from(m[2].replace(/\s+/g, ''), 'base64') } : null;
}

describeEachDb('receipts and credit notes', (kind) => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let admin: Login;
  let lawyer: Login;
  let companyA: Login;
  let companyB: Login;
  let nda: string;
  let tm: string;
  const inject = (method: 'GET' | 'POST', url: string, who: Login | null, payload?: unknown) =>
    t.app.inject({ method, url, headers: who?.headers ?? {}, payload: payload as Record<string, unknown> });

  beforeAll(async () => {
    smtp = await startSmtp();
    t = await createLoggedTestApp(kind, { SMTP_URL: `smtp://127.0.0.1:${smtp.port}` });
    [admin, lawyer, companyA, companyB] = await Promise.all([
      signupAndLogin(t, 'admin'),
      signupAndLogin(t, 'lawyer', { verified: true }),
      signupAndLogin(t, 'company'),
      signupAndLogin(t, 'company'),
    ]);
    // A name the PDF standard fonts cannot print (Yoruba letters), to prove the embedded font.
    await t.rt.database.db
      .update(users)
      .set({ companyName: 'Ọlábísí Ẹ̀kọ́ Ventures Ltd', officeAddress: '12 Adeola Odeku Street, Victoria Island, Lagos' })
      .where(eq(users.id, companyA.id));
    nda = await insertProduct(t, 'Non-Disclosure Agreement', 25_000);
    tm = await insertProduct(t, 'Trademark Registration', 10_000.5);
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });
  afterEach(async () => expect(await createLedger({ db: t.rt.database.db, clock: t.clock }).audit()).toEqual([]));

  /** Two NDAs and a trademark, ₦60,001 in all, paid by USSD in the sandbox dialog. */
  async function paidOrder(company: Login) {
    await inject('POST', '/api/cart', company, { productId: nda, quantity: 2 });
    await inject('POST', '/api/cart', company, { productId: tm, quantity: 1 });
    const { reference, amount, orderId } = (await inject('POST', '/api/checkout', company)).json().data;
    const charged = await inject('POST', '/api/checkout/sandbox/charge', company, {
      reference,
      amount,
      currency: 'NGN',
      paymentType: 'ussd',
    });
    const transactionId = charged.json().data.transaction_id as string;
    expect((await inject('POST', '/api/checkout/verify', company, { reference, transactionId })).statusCode).toBe(200);
    return { reference: reference as string, orderId: orderId as string, transactionId };
  }

  it('a paid order has a receipt PDF carrying the order, the company, the lines, the VAT and the payment', async () => {
    const { reference, orderId, transactionId } = await paidOrder(companyA);
    const res = await inject('GET', `/api/orders/${orderId}/receipt.pdf`, companyA);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="receipt-${reference}.pdf"`);
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const text = await pdfText(res.rawPayload);
    const [order] = await t.rt.database.db.select().from(orders).where(eq(orders.id, orderId));
    const day = new Intl.DateTimeFormat('en-GB', {
      day: 'numeric',
      month: 'long',
      year: 'numeric',
      timeZone: 'Africa/Lagos',
    }).format(order.paidAt!);
    // 2 × ₦25,000 + ₦10,000.50 = ₦60,000.50; VAT inside = 6,000,050 × 7.5 / 107.5 = 418,608.14 kobo.
    expect(vatIncludedKobo(6_000_050)).toBe(418_608);
    for (const s of [
      'Receipt',
      `Receipt number: ${reference}`,
      `Date: ${day}`,
      'Ọlábísí Ẹ̀kọ́ Ventures Ltd',
      '12 Adeola Odeku Street, Victoria Island, Lagos',
      companyA.email,
      'Non-Disclosure Agreement 2 ₦25,000.00 ₦50,000.00',
      'Trademark Registration 1 ₦10,000.50 ₦10,000.50',
      'Tax (incl) · VAT 7.5% ₦4,186.08',
      'Total paid (NGN) ₦60,000.50',
      `Payment reference: Sandbox transaction ${transactionId}`,
      'Payment method: USSD',
    ])
      expect(text).toContain(s);
    expect(order).toMatchObject({ paymentMethod: 'ussd', billedTo: { name: 'Ọlábísí Ẹ̀kọ́ Ventures Ltd' } });

    // The same order gives the same file, even after the company renames itself: what was billed stays.
    await t.rt.database.db.update(users).set({ companyName: 'Renamed Ltd' }).where(eq(users.id, companyA.id));
    const again = await inject('GET', `/api/orders/${orderId}/receipt.pdf`, admin);
    expect(again.statusCode).toBe(200);
    expect(again.rawPayload.equals(res.rawPayload)).toBe(true);
    await t.rt.database.db
      .update(users)
      .set({ companyName: 'Ọlábísí Ẹ̀kọ́ Ventures Ltd' })
      .where(eq(users.id, companyA.id));
    // The database keeps a paid order's receipt details as they were.
    await expect(
      t.rt.database.db.update(orders).set({ paymentMethod: 'card' }).where(eq(orders.id, orderId)),
    ).rejects.toThrow();
  });

  it('the payment confirmation is written with the payment and arrives by SMTP with the receipt attached', async () => {
    const { reference, orderId } = await paidOrder(companyA);
    const [mail] = await t.rt.database.db
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.to, companyA.email), isNotNull(emailOutbox.attachments)))
      .orderBy(emailOutbox.id)
      .then((rows) => rows.filter((r) => r.subject.includes(reference)));
    expect(mail.subject).toBe(`Payment received: ₦60,000.50 (${reference})`);
    expect(mail.attachments).toEqual([{ kind: 'receipt', id: orderId, filename: `receipt-${reference}.pdf` }]);
    // The bytes are not stored: the worker renders them when it sends.
    expect(JSON.stringify(mail)).not.toContain('%PDF');

    await t.rt.mail.runOnce();
    const arrived = smtp.received.find((m) => m.raw.includes(reference) && m.to.includes(companyA.email));
    expect(arrived).toBeTruthy();
    const part = pdfPartOf(arrived!.raw);
    expect(part?.filename).toBe(`receipt-${reference}.pdf`);
    const text = await pdfText(part!.bytes);
    expect(text).toContain(`Receipt number: ${reference}`);
    expect(text).toContain('Total paid (NGN) ₦60,000.50');
    // The development mailbox links the attachment, rendered as the worker does.
    const box = (await inject('GET', `/dev/mailbox?format=json&to=${encodeURIComponent(companyA.email)}`, null)).json()
      .data.mails as { subject: string; attachments: { filename: string; url: string }[] }[];
    const link = box.find((m) => m.subject.includes(reference))!.attachments[0];
    expect(link.filename).toBe(`receipt-${reference}.pdf`);
    const opened = await inject('GET', link.url, null);
    expect(opened.headers['content-type']).toBe('application/pdf');
    expect(await pdfText(opened.rawPayload)).toContain(`Receipt number: ${reference}`);
    expect((await inject('GET', '/dev/mailbox/999999999/attachments/0', null)).statusCode).toBe(404);
  });

  it('another company, a lawyer or a guest cannot read a receipt; unknown and unpaid orders are refused', async () => {
    const { orderId } = await paidOrder(companyB);
    const other = await inject('GET', `/api/orders/${orderId}/receipt.pdf`, companyA);
    const unknown = await inject('GET', '/api/orders/00000000-0000-4000-8000-000000000000/receipt.pdf', companyA);
    // No existence leak: someone else's order answers exactly as one that does not exist.
    expect([other.statusCode, other.json()]).toEqual([404, { status: 'fail', message: messages.orderNotFound }]);
    expect([unknown.statusCode, unknown.json()]).toEqual([other.statusCode, other.json()]);
    expect((await inject('GET', '/api/orders/not-a-uuid/receipt.pdf', companyA)).statusCode).toBe(404);
    expect((await inject('GET', `/api/orders/${'x'.repeat(65)}/receipt.pdf`, companyA)).statusCode).toBe(400);
    expect((await inject('GET', `/api/orders/${orderId}/receipt.pdf`, lawyer)).statusCode).toBe(403);
    expect((await inject('GET', `/api/orders/${orderId}/receipt.pdf`, null)).statusCode).toBe(401);
    expect((await inject('GET', `/api/orders/${orderId}/receipt.pdf`, admin)).statusCode).toBe(200);

    // An order not paid has no receipt (its company is told so; another company still sees nothing).
    await inject('POST', '/api/cart', companyB, { productId: nda, quantity: 1 });
    const pending = (await inject('POST', '/api/checkout', companyB)).json().data.orderId as string;
    const unpaid = await inject('GET', `/api/orders/${pending}/receipt.pdf`, companyB);
    expect([unpaid.statusCode, unpaid.json().message]).toEqual([409, 'This order is not paid, so it has no receipt']);
    expect((await inject('GET', `/api/orders/${pending}/receipt.pdf`, companyA)).statusCode).toBe(404);
    await inject('POST', '/api/clear-cart', companyB);
  });

  it('a completed refund gets a credit note: listed for the company, attached to the refund mail, guarded', async () => {
    const { reference, orderId } = await paidOrder(companyA);
    const [job] = await t.rt.database.db
      .select()
      .from(jobs)
      .where(and(eq(jobs.orderId, orderId), eq(jobs.productId, nda)));
    const cancelled = await inject('POST', `/job-api/jobs/${job.id}/actions/cancel`, admin, {
      note: 'The company closed the deal.',
      refund: 20_000,
    });
    expect(cancelled.statusCode).toBe(200);
    const list = (await inject('GET', '/api/refunds', companyA)).json().refunds as { _id: string; orderId: string }[];
    const mine = list.find((r) => r.orderId === orderId)!;
    expect(mine).toMatchObject({ reference, productName: 'Non-Disclosure Agreement', amount: 20_000 });
    expect((await inject('GET', '/api/refunds', companyB)).json().refunds).toEqual([]);

    const res = await inject('GET', `/api/refunds/${mine._id}/credit-note.pdf`, companyA);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['cache-control']).toBe('private, no-store');
    const number = `CN-${reference}-${job.lineNo}`;
    expect(res.headers['content-disposition']).toBe(`attachment; filename="credit-note-${number}.pdf"`);
    const text = await pdfText(res.rawPayload);
    // ₦20,000 refunded; VAT inside = 2,000,000 × 7.5 / 107.5 = 139,534.88 kobo.
    for (const s of [
      'Credit note',
      `Credit note number: ${number}`,
      `Refers to receipt: ${reference}`,
      'Reason: The company closed the deal.',
      'Ọlábísí Ẹ̀kọ́ Ventures Ltd',
      'Non-Disclosure Agreement (cancelled) 2 ₦10,000.00 ₦20,000.00',
      'Tax (incl) · VAT 7.5% ₦1,395.35',
      'Total refunded (NGN) ₦20,000.00',
    ])
      expect(text).toContain(s);

    const other = await inject('GET', `/api/refunds/${mine._id}/credit-note.pdf`, companyB);
    const unknown = await inject('GET', '/api/refunds/00000000-0000-4000-8000-000000000000/credit-note.pdf', companyB);
    expect([other.statusCode, other.json()]).toEqual([404, { status: 'fail', message: 'Refund not found' }]);
    expect([unknown.statusCode, unknown.json()]).toEqual([other.statusCode, other.json()]);
    expect((await inject('GET', `/api/refunds/${mine._id}/credit-note.pdf`, lawyer)).statusCode).toBe(403);
    expect((await inject('GET', `/api/refunds/${mine._id}/credit-note.pdf`, admin)).statusCode).toBe(200);

    const [mail] = await t.rt.database.db
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.to, companyA.email), isNotNull(emailOutbox.attachments)))
      .then((rows) => rows.filter((r) => r.subject === 'Your refund of ₦20,000 is on its way'));
    expect(mail.text).toContain(`Your credit note ${number} is attached.`);
    expect(mail.attachments).toEqual([{ kind: 'credit_note', id: mine._id, filename: `credit-note-${number}.pdf` }]);
    await t.rt.mail.runOnce();
    const arrived = smtp.received.find((m) => m.raw.includes(`credit-note-${number}.pdf`));
    expect(await pdfText(pdfPartOf(arrived!.raw)!.bytes)).toContain(`Credit note number: ${number}`);
  });
});

describeEachDb('receipts of Flutterwave payments (local stand-in)', (kind) => {
  const flw = flutterwaveStandIn();
  let t: TestApp;
  let product: string;
  beforeAll(async () => {
    t = await createLoggedTestApp(kind, await listenStandIn(flw));
    product = await insertProduct(t, 'Company Registration', 107_500);
  });
  afterAll(async () => {
    await t?.close();
    await new Promise((r) => flw.server.close(r));
  });

  it("records the method from Flutterwave's verify answer and prints it", async () => {
    const company = await signupAndLogin(t, 'company');
    const inject = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
      t.app.inject({ method, url, headers: company.headers, payload: payload as Record<string, unknown> });
    await inject('POST', '/api/cart', { productId: product, quantity: 1 });
    const { reference, amount, orderId } = (await inject('POST', '/api/checkout')).json().data;
    const id = flw.pay(reference, amount, { paymentType: 'bank_transfer' });
    expect((await inject('POST', '/api/checkout/verify', { reference, transactionId: id })).statusCode).toBe(200);
    const res = await inject('GET', `/api/orders/${orderId}/receipt.pdf`);
    const text = await pdfText(res.rawPayload);
    expect(text).toContain(`Payment reference: Flutterwave transaction ${id}`);
    expect(text).toContain('Payment method: Bank transfer');
    // ₦107,500 holds exactly ₦7,500 of VAT.
    expect(text).toContain('Tax (incl) · VAT 7.5% ₦7,500.00');
    expect(text).toContain('Total paid (NGN) ₦107,500.00');
  });
});
