import { afterAll, beforeAll, expect, it } from 'vitest';
import { strFromU8, unzipSync } from 'fflate';
import { formatNaira, privacyMessages } from '@legalmarket/contracts';
import {
  cartItems,
  jobApplications,
  jobs,
  lawyerReviews,
  orders,
  payouts,
  refunds,
  reviews,
  subscriptionPayments,
  uploads,
} from '../../db/schema.js';
import { PASSWORD, createTestApp, describeEachDb, signupAndLogin, type TestApp } from '../../../test/helpers.js';
import { insertProduct } from '../../../test/admin-fixtures.js';
import { TIED_INSERT_ORDER, tiedId } from '../../../test/tied-ids.js';

type Login = Awaited<ReturnType<typeof signupAndLogin>>;

describeEachDb('data export and deletion check: rows of the same instant keep one order', (kind) => {
  let t: TestApp;
  let company: Login;
  let lawyer: Login;
  /** Product names by line: the jobs of one cart, bought together. */
  const names = ['Line one', 'Line two', 'Line three'];
  let products: string[];
  const jobId = (line: number) => tiedId(1, 4 - line); // id order is the reverse of line order

  beforeAll(async () => {
    t = await createTestApp(kind);
    [company, lawyer] = await Promise.all([signupAndLogin(t, 'company'), signupAndLogin(t, 'lawyer')]);
    products = (await Promise.all(names.map((n) => insertProduct(t, n)))).map((p) => p.id).sort();
    const db = t.rt.database.db;
    const at = t.clock.now();
    const [order] = await db
      .insert(orders)
      .values({
        companyId: company.id,
        txRef: 'tx-cart',
        amount: 15_000_000,
        status: 'paid',
        provider: 'sandbox',
        title: 'Legal services',
        lines: [],
        createdAt: new Date(at.getTime() - 60_000),
      })
      .returning();
    // The jobs of one order share their createdAt; written out of line order.
    for (const line of TIED_INSERT_ORDER)
      await db.insert(jobs).values({
        id: jobId(line),
        orderId: order.id,
        lineNo: line,
        companyId: company.id,
        productId: (await db.query.products.findFirst({ where: (p, { eq }) => eq(p.productName, names[line - 1]) }))!
          .id,
        quantity: 1,
        amount: 5_000_000,
        createdAt: at,
      });
    for (const n of TIED_INSERT_ORDER) {
      await db.insert(orders).values({
        id: tiedId(2, n),
        companyId: company.id,
        txRef: `tx-tied-${n}`,
        amount: 5_000_000,
        status: 'failed',
        provider: 'sandbox',
        title: 'Legal services',
        lines: [],
        createdAt: at,
      });
      await db.insert(reviews).values({
        id: tiedId(3, n),
        companyId: company.id,
        productId: products[n - 1],
        reviewTitle: `Review ${n}`,
        review: 'Quick and clear.',
        status: 5,
        date: at,
      });
      await db
        .insert(cartItems)
        .values({ companyId: company.id, productId: products[n - 1], quantity: n, createdAt: at });
      await db.insert(lawyerReviews).values({
        id: tiedId(4, n),
        jobId: jobId(n),
        companyId: company.id,
        lawyerId: lawyer.id,
        stars: 5,
        reviewTitle: `Lawyer review ${n}`,
        review: 'Thorough.',
        createdAt: at,
      });
      await db.insert(jobApplications).values({ jobId: jobId(n), lawyerId: lawyer.id, createdAt: at });
      await db.insert(payouts).values({
        id: tiedId(5, n),
        lawyerId: lawyer.id,
        amount: 100_000 * n,
        status: 'paid',
        bank: 'Access Bank',
        bankCode: '044',
        accountNumber: '0690000031',
        accountName: 'Chidi Okeke',
        provider: 'sandbox',
        createdAt: at,
      });
    }
  });
  afterAll(() => t.close());

  async function exported(who: Login) {
    const res = await t.app.inject({ method: 'GET', url: '/api/account/export', headers: who.headers });
    expect(res.statusCode).toBe(200);
    const zip = unzipSync(new Uint8Array(res.rawPayload));
    return (name: string) => JSON.parse(strFromU8(zip[name]));
  }

  it("the company's archive: jobs by line, then orders, reviews, cart and lawyer reviews by id", async () => {
    for (let i = 0; i < 2; i++) {
      const file = await exported(company);
      expect.soft(file('jobs.json').map((j: { lineNo: number }) => j.lineNo)).toEqual([1, 2, 3]);
      expect.soft(file('jobs.json').map((j: { product: string }) => j.product)).toEqual(names);
      expect
        .soft(
          file('orders.json')
            .map((o: { id: string }) => o.id)
            .filter((id: string) => id !== undefined && id.startsWith('00000000')),
        )
        .toEqual([tiedId(2, 1), tiedId(2, 2), tiedId(2, 3)]);
      expect
        .soft(file('reviews.json').map((r: { reviewTitle: string }) => r.reviewTitle))
        .toEqual(['Review 1', 'Review 2', 'Review 3']);
      expect.soft(file('cart.json').map((c: { productId: string }) => c.productId)).toEqual(products);
      expect
        .soft(file('lawyer-reviews.json').map((r: { reviewTitle: string }) => r.reviewTitle))
        .toEqual(['Lawyer review 1', 'Lawyer review 2', 'Lawyer review 3']);
    }
  });

  it("the lawyer's archive: applications by job id, payouts and reviews by id", async () => {
    for (let i = 0; i < 2; i++) {
      const file = await exported(lawyer);
      expect
        .soft(file('applications.json').map((a: { jobId: string }) => a.jobId))
        .toEqual([tiedId(1, 1), tiedId(1, 2), tiedId(1, 3)]);
      expect
        .soft(file('payouts.json').payouts.map((p: { id: string }) => p.id))
        .toEqual([tiedId(5, 1), tiedId(5, 2), tiedId(5, 3)]);
      expect
        .soft(file('lawyer-reviews.json').map((r: { reviewTitle: string }) => r.reviewTitle))
        .toEqual(['Lawyer review 1', 'Lawyer review 2', 'Lawyer review 3']);
    }
  });

  it('files.json lists the files uploaded at one instant by id', async () => {
    const owner = await signupAndLogin(t, 'company');
    const at = t.clock.now();
    for (const n of TIED_INSERT_ORDER)
      await t.rt.database.db.insert(uploads).values({
        id: tiedId(10, n),
        key: `tied-${owner.id}-${n}.pdf`,
        originalName: `file-${n}.pdf`,
        contentType: 'application/pdf',
        size: 100,
        kind: 'document',
        ownerId: owner.id,
        createdAt: at,
      });
    for (let i = 0; i < 2; i++) {
      const file = await exported(owner);
      expect(file('files.json').map((f: { name: string }) => f.name)).toEqual([
        'file-1.pdf',
        'file-2.pdf',
        'file-3.pdf',
      ]);
    }
  });

  /** The deletion check's messages of one kind, as the check answers them. */
  async function blockerMessages(who: Login, kind: string) {
    const res = await t.app.inject({ method: 'GET', url: '/api/account/deletion', headers: who.headers });
    expect(res.statusCode).toBe(200);
    return (res.json().data.blockers as Array<{ kind: string; message: string }>)
      .filter((b) => b.kind === kind)
      .map((b) => b.message);
  }

  it("the deletion check names a company's refunds, payments and plan payments of one instant by id", async () => {
    const owner = await signupAndLogin(t, 'company');
    const db = t.rt.database.db;
    const at = t.clock.now();
    const [paid] = await db
      .insert(orders)
      .values({
        companyId: owner.id,
        txRef: `tx-refunded-${owner.id}`,
        amount: 15_000_000,
        status: 'paid',
        provider: 'sandbox',
        title: 'Legal services',
        lines: [],
        createdAt: new Date(at.getTime() - 60_000),
      })
      .returning();
    for (const n of TIED_INSERT_ORDER) {
      await db.insert(jobs).values({
        id: tiedId(11, n),
        orderId: paid.id,
        lineNo: n,
        companyId: owner.id,
        productId: products[0],
        status: 'cancelled',
        stage: 'cancelled',
        quantity: 1,
        amount: 5_000_000,
        createdAt: at,
      });
      await db.insert(refunds).values({
        id: tiedId(12, n),
        jobId: tiedId(11, n),
        orderId: paid.id,
        amount: 100_000 * n,
        status: 'pending',
        provider: 'sandbox',
        createdAt: at,
      });
      await db.insert(orders).values({
        id: tiedId(13, n),
        companyId: owner.id,
        txRef: `tx-replaced-${owner.id}-${n}`,
        amount: 5_000_000,
        status: 'replaced',
        provider: 'sandbox',
        title: 'Legal services',
        lines: [],
        createdAt: at,
      });
      await db.insert(subscriptionPayments).values({
        id: 9_000_000 + n,
        companyId: owner.id,
        tier: 'bronze',
        kind: 'first',
        txRef: `plan-${owner.id}-${n}`,
        amount: 2_000_000,
        status: 'pending',
        provider: 'sandbox',
        providerPlanId: 'plan-bronze',
        createdAt: at,
      });
    }
    const amounts = [1, 2, 3].map((n) => formatNaira(1_000 * n));
    for (let i = 0; i < 2; i++) {
      const refundsNamed = await blockerMessages(owner, 'pending_refund');
      expect(refundsNamed.map((m) => amounts.find((a) => m.includes(`of ${a} for`)))).toEqual(amounts);
      const paying = await blockerMessages(owner, 'payment_in_progress');
      expect(paying.map((m) => /\((?:order )?([^)]+)\)/.exec(m)?.[1])).toEqual([
        ...[1, 2, 3].map((n) => `tx-replaced-${owner.id}-${n}`),
        ...[1, 2, 3].map((n) => `plan-${owner.id}-${n}`),
      ]);
    }
    // The refusal names them in the same order.
    const checked = await t.app.inject({ method: 'GET', url: '/api/account/deletion', headers: owner.headers });
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/account/delete',
      headers: owner.headers,
      payload: { password: PASSWORD },
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(
      `${privacyMessages.deleteBlockedIntro} ${(checked.json().data.blockers as Array<{ message: string }>).map((b) => b.message).join(' ')}`,
    );
  });

  it("the deletion check names a lawyer's payouts of one instant by id", async () => {
    const earner = await signupAndLogin(t, 'lawyer');
    const at = t.clock.now();
    for (const n of TIED_INSERT_ORDER)
      await t.rt.database.db.insert(payouts).values({
        id: tiedId(14, n),
        lawyerId: earner.id,
        amount: 100_000 * n,
        status: n === 3 ? 'sending' : 'requested',
        bank: 'Access Bank',
        bankCode: '044',
        accountNumber: '0690000031',
        accountName: 'Chidi Okeke',
        provider: 'sandbox',
        createdAt: at,
      });
    const amounts = [1, 2, 3].map((n) => formatNaira(1_000 * n));
    for (let i = 0; i < 2; i++) {
      const named = await blockerMessages(earner, 'pending_payout');
      expect(named.map((m) => amounts.find((a) => m.includes(`of ${a} requested`)))).toEqual(amounts);
    }
  });

  it('the deletion check names the open jobs in line order', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await t.app.inject({ method: 'GET', url: '/api/account/deletion', headers: company.headers });
      expect(res.statusCode).toBe(200);
      const open = (res.json().data.blockers as Array<{ kind: string; message: string }>).find(
        (b) => b.kind === 'open_job',
      );
      expect(open?.message).toBe(
        'You have 3 open jobs: Line one (unassigned), Line two (unassigned), Line three (unassigned). A job must be completed or cancelled first.',
      );
    }
  });
});
