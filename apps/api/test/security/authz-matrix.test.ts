import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import { NIGERIAN_BANKS } from '@legalmarket/contracts';
import {
  jobApplications,
  jobs,
  payoutDetails,
  payouts,
  products,
  reviews,
  users,
  cartItems,
  emailOutbox,
  orders,
  refunds,
} from '../../src/db/schema.js';
import { Secret, TOTP } from 'otpauth';
import { hashPassword } from '../../src/platform/passwords.js';
import { insertJob, insertProduct } from '../admin-fixtures.js';
import { SUCCESS_CARD } from '../commerce-helpers.js';
import {
  PASSWORD,
  companyBody,
  createTestApp,
  describeEachDb,
  lastMailTo,
  lawyerBody,
  linkToken,
  signupAndLogin,
  sixDigits,
  uniqueEmail,
  type TestApp,
} from '../helpers.js';
import { multipart, pdfBytes, pngBytes } from '../upload-helpers.js';
import { ACTORS, TABLE, type Actor, type Outcome } from './authz-table.js';
import { routeKeys, type CollectedRoute } from './route-collector.js';

const collected = vi.hoisted(() => [] as CollectedRoute[]);
vi.mock('fastify', async (importOriginal) => {
  const { collectingFastify } = await import('./route-collector.js');
  return collectingFastify(await importOriginal(), collected);
});

type Login = Awaited<ReturnType<typeof signupAndLogin>>;
type Method = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
interface Req {
  method?: Method;
  url: string;
  payload?: string | object | Buffer;
  headers?: Record<string, string>;
  /** Replaces the actor's token (e.g. a throwaway session for logout). */
  token?: string | null;
}
interface Ctx {
  actor: Actor;
  who: Login | null;
  w: World;
  t: TestApp;
}
type Builder = (c: Ctx) => Promise<Req> | Req;

const INVITE = 'matrix-invite-code-0123456789';
const UNKNOWN_PAYOUT = '00000000-0000-4000-8000-000000000000';
const ACCOUNT = (n: number) => ({
  accountNumber: `01234567${String(n).padStart(2, '0')}`,
  accountName: 'Chidi Okeke',
  bank: NIGERIAN_BANKS[0],
});

/** The contact fields of the n-th account of the world (buildWorld), each found nowhere else. */
const contactOf = (n: number) => ({
  phoneNumber: `0809${String(n + 1).repeat(7)}`,
  alternativeEmailAddress: `matrix-alt-${n + 1}@example.ng`,
  officeAddress: `${n + 1} Matrix Close, Lagos`,
});

interface World {
  who: Record<Exclude<Actor, 'guest'>, Login>;
  loginTarget: Login;
  product: string;
  otherProduct: string;
  updatable: string;
  deleted: string;
  imgA: string;
  docA: string;
  docB: string;
  /** On company A's / B's open job (issue 14: no lawyer sees their keys). */
  openDocA: string;
  openDocB: string;
  /** Company B's, named by company A's assigned job as the old code let A write it. */
  plantedB: string;
  /** An admin's upload, attached to A's open job by the admin cell. */
  adminDoc: string;
  job: { assignedOfA: string; openOfA: string; assignedOfB: string; openOfB: string };
  order: { A: { reference: string; id: string }; B: { reference: string; id: string } };
  /** A completed refund of A's / B's open job (its credit note). */
  refund: { A: string; B: string };
  /** An outbox mail with an attachment (A's payment confirmation). */
  attachedMail: number;
  review: { A: string; B: string };
  /** Strings only their owners (and admins) may ever see, per owner. */
  secrets: Record<string, string[]>;
  signedUp: { company: string[]; lawyer: string[] };
  passwordHash: string;
}

const inject = (t: TestApp, who: Login | null, r: Req) =>
  t.app.inject({
    method: r.method ?? 'GET',
    url: r.url,
    payload: r.payload as string | object | Buffer | undefined,
    headers: {
      ...(r.token !== undefined ? (r.token ? { authorization: `Bearer ${r.token}` } : {}) : who ? who.headers : {}),
      ...r.headers,
    },
  });

async function ok(t: TestApp, who: Login | null, r: Req) {
  const res = await inject(t, who, r);
  if (res.statusCode >= 300) throw new Error(`${r.method ?? 'GET'} ${r.url} answered ${res.statusCode}: ${res.body}`);
  return res;
}

/** Fields a client must never be able to set; added to every JSON and form body of the matrix. */
function mass(c: Ctx) {
  const victim = c.actor === 'companyB' ? c.w.who.companyA.id : c.w.who.companyB.id;
  const otherLawyer = c.actor === 'otherLawyer' ? c.w.who.lawyer.id : c.w.who.otherLawyer.id;
  return {
    role: 'admin',
    userType: 'admin',
    verified: true,
    status: 'completed',
    price: 1,
    productPrice: 1,
    amount: 1,
    companyId: victim,
    assignedTo: otherLawyer,
    emailConfirmedAt: '2020-01-01T00:00:00Z',
    deletedAt: '2020-01-01T00:00:00Z',
    passwordHash: 'x',
    _id: crypto.randomUUID(),
  };
}
const massFields = (c: Ctx) => Object.entries(mass(c)).map(([name, value]) => ({ name, value: String(value) }));

/** A confirmed account inserted directly (one shared hash keeps set-up fast). */
async function freshUser(c: Ctx, type: 'company' | 'lawyer') {
  const email = uniqueEmail(`fresh-${type}`);
  const [row] = await c.t.rt.database.db
    .insert(users)
    .values({
      userType: type,
      officialEmail: email,
      passwordHash: c.w.passwordHash,
      name: 'Fresh',
      companyName: type === 'company' ? 'Fresh Ltd' : null,
      phoneNumber: '08000000000',
      emailConfirmedAt: c.t.clock.now(),
    })
    .returning();
  return { id: row.id, email };
}

async function resetCode(c: Ctx, email: string) {
  await ok(c.t, null, { method: 'POST', url: '/api/forgot-password', payload: { officialEmail: email } });
  return sixDigits((await lastMailTo(c.t, email))!.text)!;
}

/** A fresh account enrols an authenticator; answers the "This wasn't me" token its owner is mailed (decision 2220). */
async function notMeToken(c: Ctx) {
  const fresh = await freshUser(c, 'company');
  const session = (
    await ok(c.t, null, {
      method: 'POST',
      url: '/api/login',
      payload: { officialEmail: fresh.email, password: PASSWORD },
    })
  ).json().token as string;
  const setup = await ok(c.t, null, {
    method: 'POST',
    url: '/api/two-factor/setup',
    token: session,
    payload: { password: PASSWORD },
  });
  const code = new TOTP({ secret: Secret.fromBase32(setup.json().data.secret) }).generate({
    timestamp: c.t.clock.now().getTime(),
  });
  await ok(c.t, null, { method: 'POST', url: '/api/two-factor/enable', token: session, payload: { code } });
  return linkToken((await lastMailTo(c.t, fresh.email))!.text)!;
}

/** A fresh lawyer saves payout details; answers the "This wasn't me" token it is mailed (decision 2244). */
async function payoutNotMeToken(c: Ctx) {
  const fresh = await freshUser(c, 'lawyer');
  const session = (
    await ok(c.t, null, {
      method: 'POST',
      url: '/api/login',
      payload: { officialEmail: fresh.email, password: PASSWORD },
    })
  ).json().token as string;
  await ok(c.t, null, {
    method: 'POST',
    url: '/api/add-payment-details',
    token: session,
    payload: { accountNumber: '0123456789', accountName: 'Chidi Okeke', bank: 'Zenith Bank' },
  });
  return linkToken((await lastMailTo(c.t, fresh.email))!.text)!;
}

async function ensureCart(c: Ctx, who: Login | null = c.who) {
  if (c.actor !== 'companyA' && c.actor !== 'companyB') return;
  // A product added again adds to its line (decision 1800): take the line out so it never passes 10.
  await ok(c.t, who, { method: 'DELETE', url: `/api/cart/${c.w.product}` });
  await ok(c.t, who, {
    method: 'POST',
    url: '/api/cart',
    payload: { productId: c.w.product, quantity: 1, detail: `CARTNOW-${c.actor === 'companyA' ? 'A' : 'B'}` },
  });
}

async function payoutCode(c: Ctx) {
  if (!['lawyer', 'otherLawyer', 'lawyerUnverified'].includes(c.actor)) return '123456';
  await ok(c.t, c.who, { method: 'POST', url: '/api/send-otp' });
  return sixDigits((await lastMailTo(c.t, c.who!.email))!.text)!;
}

const accountOf = (actor: Actor) => ACCOUNT(ACTORS.indexOf(actor));

/** A fresh completed job: company A's done by `lawyer` (ofA), company B's done by `otherLawyer` (ofB). */
const completedJobOf = async (c: Ctx, v: 'ofA' | 'ofB') =>
  (
    await insertJob(c.t, c.w.who[v === 'ofA' ? 'companyA' : 'companyB'].id, {
      productId: c.w.product,
      status: 'completed',
      lawyerId: c.w.who[v === 'ofA' ? 'lawyer' : 'otherLawyer'].id,
    })
  ).id;
const lawyerReviewBody = (jobId: string) => ({ jobId, stars: 4, reviewTitle: 'On time', review: 'Clear work.' });
/** A fresh review of a completed job, written by its company (see completedJobOf). */
async function lawyerReviewOf(c: Ctx, v: 'ofA' | 'ofB') {
  const jobId = await completedJobOf(c, v);
  const res = await ok(c.t, c.w.who[v === 'ofA' ? 'companyA' : 'companyB'], {
    method: 'POST',
    url: '/api/lawyer-reviews',
    payload: lawyerReviewBody(jobId),
  });
  return res.json().data.review._id as string;
}
const pdfUpload = () =>
  multipart([{ name: 'file', file: { data: pdfBytes(), filename: 'a.pdf', type: 'application/pdf' } }]);

const get =
  (url: string | ((c: Ctx) => string)): Builder =>
  (c) => ({ url: typeof url === 'string' ? url : url(c) });

/** The upload a company names: its own, or the other company's (non-companies name A's). */
const fileFor = (c: Ctx, v: 'ownFile' | 'fileOfOther') =>
  (c.actor === 'companyB') === (v === 'ownFile') ? c.w.docB : c.w.docA;

/** How each cell is called: same keys and variants as TABLE. */
const REQUESTS: Record<string, Record<string, Builder>> = {
  'GET /api/health': { any: get('/api/health') },
  'GET /api/public-config': { any: get('/api/public-config') },
  'GET /api/showcase': { any: get('/api/showcase') },
  'GET /api/remuneration-order': { any: get('/api/remuneration-order') },
  'PUT /api/remuneration-order': {
    any: () => ({
      method: 'PUT',
      url: '/api/remuneration-order',
      payload: pdfBytes('order'),
      headers: { 'content-type': 'application/pdf' },
    }),
  },
  'GET /dev/mailbox': { any: get('/dev/mailbox?format=json') },
  'GET /dev/mailbox/:id/attachments/:index': { any: get((c) => `/dev/mailbox/${c.w.attachedMail}/attachments/0`) },
  'GET /api/docs': { any: get('/api/docs') },
  'GET /api/docs/static/index.html': { any: get('/api/docs/static/index.html') },
  'GET /api/docs/static/swagger-initializer.js': { any: get('/api/docs/static/swagger-initializer.js') },
  'GET /api/docs/static/*': { any: get('/api/docs/static/swagger-ui.css') },
  'GET /api/docs/json': { any: get('/api/docs/json') },
  'GET /api/docs/yaml': { any: get('/api/docs/yaml') },
  'POST /api/payments/webhook': {
    unsigned: (c) => ({
      method: 'POST',
      url: '/api/payments/webhook',
      payload: { event: 'charge.completed', data: { id: 1, tx_ref: c.w.order.A.reference, status: 'successful' } },
    }),
  },

  'POST /api/company/signup': {
    any: (c) => {
      const email = uniqueEmail('mass-company');
      c.w.signedUp.company.push(email);
      return { method: 'POST', url: '/api/company/signup', payload: { ...mass(c), ...companyBody(email) } };
    },
  },
  'POST /api/lawyer/signup': {
    any: (c) => {
      const email = uniqueEmail('mass-lawyer');
      c.w.signedUp.lawyer.push(email);
      return { method: 'POST', url: '/api/lawyer/signup', payload: { ...mass(c), ...lawyerBody(email) } };
    },
  },
  'POST /api/admin/signup': Object.fromEntries(
    (['rightInvite', 'wrongInvite'] as const).map((v) => [
      v,
      (c: Ctx): Req => ({
        method: 'POST',
        url: '/api/admin/signup',
        payload: {
          ...mass(c),
          name: 'New Admin',
          phoneNumber: '08011112222',
          officialEmail: uniqueEmail('admin-signup'),
          password: PASSWORD,
          passwordConfirm: PASSWORD,
          inviteCode: v === 'rightInvite' ? INVITE : 'not-the-invite-code',
        },
      }),
    ]),
  ),
  'POST /api/confirm-email': {
    any: async (c) => {
      const email = uniqueEmail('confirm');
      await ok(c.t, null, { method: 'POST', url: '/api/company/signup', payload: companyBody(email) });
      return {
        method: 'POST',
        url: '/api/confirm-email',
        payload: { token: linkToken((await lastMailTo(c.t, email))!.text) },
      };
    },
  },
  ...Object.fromEntries(
    (['confirm', 'undo'] as const).map((step) => [
      `POST /api/${step}-email-change`,
      {
        any: async (c: Ctx): Promise<Req> => {
          // A fresh account asks to move to a fresh address; the link of that step is the call.
          const who = await signupAndLogin(c.t, 'company');
          const next = uniqueEmail('moving');
          const body = await multipart([
            { name: 'officialEmail', value: next },
            { name: 'currentPassword', value: PASSWORD },
          ]);
          await ok(c.t, who, {
            method: 'PATCH',
            url: `/api/updateprofile?_id=${who.id}`,
            payload: body.payload,
            headers: body.headers,
          });
          const mail = await lastMailTo(c.t, step === 'confirm' ? next : who.email);
          return { method: 'POST', url: `/api/${step}-email-change`, payload: { token: linkToken(mail!.text) } };
        },
      },
    ]),
  ),
  'POST /api/resendconfirmemail': {
    any: () => ({ method: 'POST', url: '/api/resendconfirmemail', payload: { officialEmail: uniqueEmail('resend') } }),
  },
  'POST /api/login': {
    any: (c) => ({
      method: 'POST',
      url: '/api/login',
      payload: { ...mass(c), officialEmail: c.w.loginTarget.email, password: PASSWORD },
    }),
  },
  'POST /api/login/two-factor': {
    // A fresh account enrols, signs in with its password, and the actor sends the challenge with a recovery code.
    enrolled: async (c) => {
      const fresh = await freshUser(c, 'company');
      const session = (
        await ok(c.t, null, {
          method: 'POST',
          url: '/api/login',
          payload: { officialEmail: fresh.email, password: PASSWORD },
        })
      ).json().token as string;
      const setup = await ok(c.t, null, {
        method: 'POST',
        url: '/api/two-factor/setup',
        token: session,
        payload: { password: PASSWORD },
      });
      const code = new TOTP({ secret: Secret.fromBase32(setup.json().data.secret) }).generate({
        timestamp: c.t.clock.now().getTime(),
      });
      const enabled = await ok(c.t, null, {
        method: 'POST',
        url: '/api/two-factor/enable',
        token: session,
        payload: { code },
      });
      const challenge = await ok(c.t, null, {
        method: 'POST',
        url: '/api/login',
        payload: { officialEmail: fresh.email, password: PASSWORD },
      });
      return {
        method: 'POST',
        url: '/api/login/two-factor',
        payload: {
          ...mass(c),
          challengeToken: challenge.json().challengeToken,
          code: enabled.json().data.recoveryCodes[0],
        },
      };
    },
    unknownChallenge: (c) => ({
      method: 'POST',
      url: '/api/login/two-factor',
      payload: { ...mass(c), challengeToken: 'x'.repeat(43), code: '123456' },
    }),
  },
  'GET /api/two-factor': { any: get('/api/two-factor') },
  'GET /api/two-factor/not-me': {
    any: async (c) => ({ url: `/api/two-factor/not-me?token=${await notMeToken(c)}` }),
  },
  'POST /api/two-factor/not-me': {
    any: async (c) => ({
      method: 'POST',
      url: '/api/two-factor/not-me',
      payload: { ...mass(c), token: await notMeToken(c) },
    }),
  },
  'GET /api/payment-details/not-me': {
    any: async (c) => ({ url: `/api/payment-details/not-me?token=${await payoutNotMeToken(c)}` }),
  },
  'POST /api/payment-details/not-me': {
    any: async (c) => ({
      method: 'POST',
      url: '/api/payment-details/not-me',
      payload: { ...mass(c), token: await payoutNotMeToken(c) },
    }),
  },
  // The caller's own other sessions: the matrix's actors sign in once, so nothing it relies on ends.
  'POST /api/logout/others': { any: () => ({ method: 'POST', url: '/api/logout/others' }) },
  'POST /api/two-factor/setup': {
    any: (c) => ({ method: 'POST', url: '/api/two-factor/setup', payload: { ...mass(c), password: PASSWORD } }),
  },
  'POST /api/two-factor/enable': {
    any: (c) => ({ method: 'POST', url: '/api/two-factor/enable', payload: { ...mass(c), code: '123456' } }),
  },
  'POST /api/two-factor/verify': {
    any: (c) => ({ method: 'POST', url: '/api/two-factor/verify', payload: { ...mass(c), code: '123456' } }),
  },
  'POST /api/two-factor/disable': {
    any: (c) => ({ method: 'POST', url: '/api/two-factor/disable', payload: { ...mass(c), code: '123456' } }),
  },
  'POST /dev/two-factor/forget-code': { any: () => ({ method: 'POST', url: '/dev/two-factor/forget-code' }) },
  'POST /api/logout': {
    any: async (c) => {
      if (!c.who) return { method: 'POST', url: '/api/logout' };
      const res = await ok(c.t, null, {
        method: 'POST',
        url: '/api/login',
        payload: { officialEmail: c.who.email, password: PASSWORD },
      });
      return { method: 'POST', url: '/api/logout', token: res.json().token as string };
    },
  },
  'POST /api/forgot-password': {
    any: async (c) => ({
      method: 'POST',
      url: '/api/forgot-password',
      payload: { officialEmail: (await freshUser(c, 'company')).email },
    }),
  },
  'POST /api/confirm-reset-token': {
    any: async (c) => {
      const u = await freshUser(c, 'company');
      return {
        method: 'POST',
        url: '/api/confirm-reset-token',
        payload: { officialEmail: u.email, token: await resetCode(c, u.email) },
      };
    },
  },
  'PATCH /api/reset-password': {
    any: async (c) => {
      const u = await freshUser(c, 'company');
      const code = await resetCode(c, u.email);
      const grant = await ok(c.t, null, {
        method: 'POST',
        url: '/api/confirm-reset-token',
        payload: { officialEmail: u.email, token: code },
      });
      return {
        method: 'PATCH',
        url: `/api/reset-password?userEmail=${encodeURIComponent(u.email)}&token=${grant.json().resetToken}`,
        payload: { ...mass(c), password: 'N3w!Password', passwordConfirm: 'N3w!Password' },
      };
    },
  },
  'GET /api/userprofile': {
    self: get((c) => `/api/userprofile?_id=${c.who?.id ?? c.w.who.companyA.id}`),
    ofA: get((c) => `/api/userprofile?_id=${c.w.who.companyA.id}`),
    ofB: get((c) => `/api/userprofile?_id=${c.w.who.companyB.id}`),
  },
  'GET /api/account/export': {
    self: get('/api/account/export'),
    ofA: get((c) => `/api/account/export?_id=${c.w.who.companyA.id}`),
    ofB: get((c) => `/api/account/export?_id=${c.w.who.companyB.id}`),
  },
  'GET /api/account/deletion': { any: get('/api/account/deletion') },
  'POST /api/account/delete': {
    throwaway: async (c) => {
      const req = { method: 'POST' as const, url: '/api/account/delete', payload: { ...mass(c), password: PASSWORD } };
      if (!c.who) return req;
      // A fresh account of the actor's own role, so the matrix's actors live on.
      const type = c.actor.startsWith('company') ? 'company' : c.actor === 'admin' ? 'admin' : 'lawyer';
      const email = uniqueEmail(`throwaway-${type}`);
      await c.t.rt.database.db.insert(users).values({
        userType: type,
        officialEmail: email,
        passwordHash: c.w.passwordHash,
        name: 'Throwaway',
        phoneNumber: '08000000000',
        verified: c.actor === 'lawyer' || c.actor === 'otherLawyer',
        emailConfirmedAt: c.t.clock.now(),
      });
      const login = await ok(c.t, null, {
        method: 'POST',
        url: '/api/login',
        payload: { officialEmail: email, password: PASSWORD },
      });
      return { ...req, token: login.json().token as string };
    },
    wrongPassword: (c) => ({
      method: 'POST',
      url: '/api/account/delete',
      payload: { ...mass(c), password: 'Wr0ng!Password' },
    }),
  },
  'PATCH /api/updateprofile': Object.fromEntries(
    (['self', 'ofA', 'ofB'] as const).map((v) => [
      v,
      async (c: Ctx): Promise<Req> => {
        const id =
          v === 'ofA' ? c.w.who.companyA.id : v === 'ofB' ? c.w.who.companyB.id : (c.who?.id ?? c.w.who.companyA.id);
        const body = await multipart([
          { name: 'yourBio', value: `Bio set by ${c.actor}` },
          ...massFields(c),
          { name: 'name', value: 'Mallory' },
          { name: 'companyName', value: 'Mallory Ltd' },
        ]);
        return { method: 'PATCH', url: `/api/updateprofile?_id=${id}`, payload: body.payload, headers: body.headers };
      },
    ]),
  ),

  'GET /product-api/products': { any: get('/product-api/products') },
  'GET /product-api/product/:id': {
    live: get((c) => `/product-api/product/${c.w.product}`),
    deleted: get((c) => `/product-api/product/${c.w.deleted}`),
  },
  'POST /api/create': {
    any: async (c) => {
      const body = await multipart([
        ...massFields(c).filter((f) => f.name !== 'productPrice'),
        { name: 'productName', value: `Made by ${c.actor}` },
        { name: 'productPrice', value: '25000' },
        { name: 'productDescription', value: 'A product created in the matrix.' },
        { name: 'productImage', file: { data: pngBytes(), filename: 'p.png', type: 'image/png' } },
      ]);
      return { method: 'POST', url: '/api/create', payload: body.payload, headers: body.headers };
    },
  },
  'PUT /api/update/:id': {
    any: async (c) => {
      const body = await multipart([
        { name: 'productName', value: 'Updatable product' },
        { name: 'productPrice', value: '30000' },
        { name: 'productDescription', value: 'Updated in the matrix.' },
      ]);
      return { method: 'PUT', url: `/api/update/${c.w.updatable}`, payload: body.payload, headers: body.headers };
    },
  },
  'DELETE /api/delete/:id': {
    any: async (c) => ({ method: 'DELETE', url: `/api/delete/${(await insertProduct(c.t, 'Doomed')).id}` }),
  },

  'POST /api/uploads': {
    any: async () => {
      const body = await pdfUpload();
      return { method: 'POST', url: '/api/uploads?kind=document', payload: body.payload, headers: body.headers };
    },
  },
  'GET /api/files/:key/link': {
    imageOfA: get((c) => `/api/files/${c.w.imgA}/link`),
    docOfA: get((c) => `/api/files/${c.w.docA}/link`),
    docOfB: get((c) => `/api/files/${c.w.docB}/link`),
    openDocOfA: get((c) => `/api/files/${c.w.openDocA}/link`),
    plantedInA: get((c) => `/api/files/${c.w.plantedB}/link`),
  },
  'GET /uploads/:key': {
    imageOfA: get((c) => `/uploads/${c.w.imgA}`),
    docOfA: get((c) => `/uploads/${c.w.docA}`),
    docOfB: get((c) => `/uploads/${c.w.docB}`),
    openDocOfA: get((c) => `/uploads/${c.w.openDocA}`),
    plantedInA: get((c) => `/uploads/${c.w.plantedB}`),
  },

  'GET /ratings-api/rating': { any: get('/ratings-api/rating') },
  'POST /api/rating': {
    any: (c) => ({
      method: 'POST',
      url: '/api/rating',
      payload: {
        ...mass(c),
        productId: c.w.product,
        reviewTitle: `by-${c.actor}`,
        review: 'Fast and clear.',
        status: 4,
      },
    }),
  },
  'POST /api/lawyer-reviews': {
    own: async (c) => {
      const company = c.actor === 'companyB' ? c.w.who.companyB : c.w.who.companyA;
      const job = await completedJobOf(c, company === c.w.who.companyA ? 'ofA' : 'ofB');
      return { method: 'POST', url: '/api/lawyer-reviews', payload: { ...mass(c), ...lawyerReviewBody(job) } };
    },
    ...Object.fromEntries(
      (['ofA', 'ofB'] as const).map((v) => [
        v,
        async (c: Ctx): Promise<Req> => ({
          method: 'POST',
          url: '/api/lawyer-reviews',
          payload: { ...mass(c), ...lawyerReviewBody(await completedJobOf(c, v)) },
        }),
      ]),
    ),
  },
  'PATCH /api/lawyer-reviews/:id': Object.fromEntries(
    (['ofA', 'ofB'] as const).map((v) => [
      v,
      async (c: Ctx): Promise<Req> => ({
        method: 'PATCH',
        url: `/api/lawyer-reviews/${await lawyerReviewOf(c, v)}`,
        payload: { ...mass(c), stars: 2, reviewTitle: `Edited by ${c.actor}`, review: 'Changed.' },
      }),
    ]),
  ),
  'POST /api/lawyer-reviews/:id/reply': Object.fromEntries(
    (['ofA', 'ofB'] as const).map((v) => [
      v,
      async (c: Ctx): Promise<Req> => ({
        method: 'POST',
        url: `/api/lawyer-reviews/${await lawyerReviewOf(c, v)}/reply`,
        payload: { ...mass(c), reply: `Answered by ${c.actor}` },
      }),
    ]),
  ),
  'GET /api/lawyers/:id/reviews': { any: get((c) => `/api/lawyers/${c.w.who.lawyer.id}/reviews`) },
  'PATCH /api/rating/:id': Object.fromEntries(
    (['ofA', 'ofB'] as const).map((v) => [
      v,
      (c: Ctx): Req => ({
        method: 'PATCH',
        url: `/api/rating/${c.w.review[v === 'ofA' ? 'A' : 'B']}`,
        payload: {
          ...mass(c),
          reviewTitle: `by-company${v === 'ofA' ? 'A' : 'B'}`,
          review: `Edited by ${c.actor}`,
          status: 5,
          productId: c.w.otherProduct,
        },
      }),
    ]),
  ),
  'DELETE /api/rating/:id': Object.fromEntries(
    (['ofA', 'ofB'] as const).map((v) => [
      v,
      async (c: Ctx): Promise<Req> => {
        const owner = c.w.who[v === 'ofA' ? 'companyA' : 'companyB'];
        const res = await ok(c.t, owner, {
          method: 'POST',
          url: '/api/rating',
          // One review per company and product (decision 2001): on the other product, so the one each
          // company keeps of c.w.product (w.review) stays for the PATCH rows.
          payload: {
            productId: c.w.otherProduct,
            reviewTitle: `by-company${v === 'ofA' ? 'A' : 'B'}`,
            review: `To delete ${crypto.randomUUID()}`,
            status: 3,
          },
        });
        return { method: 'DELETE', url: `/api/rating/${res.json()._id}` };
      },
    ]),
  ),

  'POST /api/cart': {
    any: (c) => ({
      method: 'POST',
      url: '/api/cart',
      payload: {
        ...mass(c),
        productId: c.w.product,
        quantity: 1,
        detail: `CARTNOW-${c.actor === 'companyB' ? 'B' : 'A'}`,
      },
    }),
    ...Object.fromEntries(
      (['ownFile', 'fileOfOther'] as const).map((v) => [
        v,
        (c: Ctx): Req => ({
          method: 'POST',
          url: '/api/cart',
          payload: {
            productId: c.w.product,
            quantity: 1,
            detail: `CARTNOW-${c.actor === 'companyB' ? 'B' : 'A'}`,
            file: `/uploads/${fileFor(c, v)}`,
            fileName: 'brief.pdf',
          },
        }),
      ]),
    ),
  },
  'POST /api/cart/reservations': {
    any: (c) => ({
      method: 'POST',
      url: '/api/cart/reservations',
      payload: {
        ...mass(c),
        items: [
          {
            reservationId: crypto.randomUUID(),
            productId: c.w.product,
            quantity: 1,
            detail: `CARTNOW-${c.actor === 'companyB' ? 'B' : 'A'}`,
          },
        ],
      },
    }),
  },
  'GET /api/cart': {
    any: async (c) => {
      await ensureCart(c);
      return { url: '/api/cart' };
    },
  },
  'DELETE /api/cart/:productId': { any: (c) => ({ method: 'DELETE', url: `/api/cart/${c.w.otherProduct}` }) },
  'POST /api/clear-cart': { any: () => ({ method: 'POST', url: '/api/clear-cart' }) },
  'POST /api/checkout': {
    any: async (c) => {
      await ensureCart(c);
      return { method: 'POST', url: '/api/checkout', payload: mass(c) };
    },
  },
  'POST /api/checkout/verify': {
    ofA: (c) => ({
      method: 'POST',
      url: '/api/checkout/verify',
      payload: { ...mass(c), reference: c.w.order.A.reference },
    }),
    ofB: (c) => ({
      method: 'POST',
      url: '/api/checkout/verify',
      payload: { ...mass(c), reference: c.w.order.B.reference },
    }),
  },
  'POST /api/checkout/sandbox/charge': Object.fromEntries(
    (['ofA', 'ofB'] as const).map((v) => [
      v,
      async (c: Ctx): Promise<Req> => {
        const owner = v === 'ofA' ? 'companyA' : 'companyB';
        const ownerCtx = { ...c, actor: owner as Actor, who: c.w.who[owner] };
        await ensureCart(ownerCtx);
        const start = await ok(c.t, c.w.who[owner], { method: 'POST', url: '/api/checkout' });
        const { reference, amount } = start.json().data as { reference: string; amount: number };
        return {
          method: 'POST',
          url: '/api/checkout/sandbox/charge',
          payload: { reference, amount, currency: 'NGN', paymentType: 'ussd' },
        };
      },
    ]),
  ),
  'POST /api/checkout/sandbox/virtual-account': Object.fromEntries(
    (['ofA', 'ofB'] as const).map((v) => [
      v,
      async (c: Ctx): Promise<Req> => {
        const owner = v === 'ofA' ? 'companyA' : 'companyB';
        await ensureCart({ ...c, actor: owner as Actor, who: c.w.who[owner] });
        const start = await ok(c.t, c.w.who[owner], { method: 'POST', url: '/api/checkout' });
        const { reference } = start.json().data as { reference: string };
        return { method: 'POST', url: '/api/checkout/sandbox/virtual-account', payload: { reference } };
      },
    ]),
  ),
  'GET /api/orders': { any: get('/api/orders') },
  'GET /api/orders/:id/receipt.pdf': {
    ofA: get((c) => `/api/orders/${c.w.order.A.id}/receipt.pdf`),
    ofB: get((c) => `/api/orders/${c.w.order.B.id}/receipt.pdf`),
  },

  'GET /job-api/company/pendingjobs': { any: get('/job-api/company/pendingjobs') },
  'GET /job-api/company/completedjobs': { any: get('/job-api/company/completedjobs') },
  'PUT /job-api/company/editjobdetails/:jobId': {
    ...Object.fromEntries(
      (['ofA', 'ofB'] as const).map((v) => [
        v,
        (c: Ctx): Req => ({
          method: 'PUT',
          url: `/job-api/company/editjobdetails/${c.w.job[v === 'ofA' ? 'assignedOfA' : 'assignedOfB']}`,
          payload: { ...mass(c), detail: `JOBNOTE-${v === 'ofA' ? 'A' : 'B'} set by ${c.actor}` },
        }),
      ]),
    ),
    // Each company on its own job (others on A's), naming its own or the other company's upload.
    ...Object.fromEntries(
      (['ownFile', 'fileOfOther'] as const).map((v) => [
        v,
        (c: Ctx): Req => {
          const tag = c.actor === 'companyB' ? 'B' : 'A';
          return {
            method: 'PUT',
            url: `/job-api/company/editjobdetails/${c.w.job[tag === 'B' ? 'assignedOfB' : 'assignedOfA']}`,
            payload: {
              detail: `JOBNOTE-${tag} set by company${tag}`,
              file: `/uploads/${fileFor(c, v)}`,
              fileName: 'brief.pdf',
            },
          };
        },
      ]),
    ),
  },
  'GET /api/company/:id': { ofA: get((c) => `/api/company/${c.w.who.companyA.id}`) },

  'GET /job-api/jobs': { any: get('/job-api/jobs') },
  'GET /job-api/job/:id': {
    assignedOfA: get((c) => `/job-api/job/${c.w.job.assignedOfA}`),
    assignedOfB: get((c) => `/job-api/job/${c.w.job.assignedOfB}`),
    openOfA: get((c) => `/job-api/job/${c.w.job.openOfA}`),
  },
  'POST /job-api/applyforjob/:id': {
    openOfA: (c) => ({ method: 'POST', url: `/job-api/applyforjob/${c.w.job.openOfA}`, payload: mass(c) }),
    assignedOfB: (c) => ({ method: 'POST', url: `/job-api/applyforjob/${c.w.job.assignedOfB}`, payload: mass(c) }),
  },
  'GET /job-api/lawyer/pendingjobs': { any: get('/job-api/lawyer/pendingjobs') },
  'GET /job-api/lawyer/completedjobs': { any: get('/job-api/lawyer/completedjobs') },
  'GET /job-api/lawyer/earnings': { any: get('/job-api/lawyer/earnings') },
  'POST /job-api/requestmorejobdetails/:id': Object.fromEntries(
    (['assignedOfA', 'assignedOfB'] as const).map((v) => [
      v,
      (c: Ctx): Req => ({
        method: 'POST',
        url: `/job-api/requestmorejobdetails/${c.w.job[v]}`,
        payload: { ...mass(c), detail: `Please send the CAC certificate (${c.actor})` },
      }),
    ]),
  ),

  'GET /job-api/jobs/:id': {
    assignedOfA: get((c) => `/job-api/jobs/${c.w.job.assignedOfA}`),
    openOfA: get((c) => `/job-api/jobs/${c.w.job.openOfA}`),
  },
  'GET /job-api/jobs/:id/events': { assignedOfA: get((c) => `/job-api/jobs/${c.w.job.assignedOfA}/events?after=0`) },
  'POST /job-api/jobs/:id/actions/:action': Object.fromEntries(
    (['assignedOfA', 'assignedOfB'] as const).map((v) => [
      v,
      (c: Ctx): Req => ({
        method: 'POST',
        url: `/job-api/jobs/${c.w.job[v]}/actions/message`,
        payload: { note: `A message from ${c.actor}` },
      }),
    ]),
  ),
  'POST /job-api/jobs/:id/read': {
    assignedOfA: (c) => ({
      method: 'POST',
      url: `/job-api/jobs/${c.w.job.assignedOfA}/read`,
      payload: { lastEventId: '0' },
    }),
  },
  'GET /api/notifications': { any: get('/api/notifications') },
  'GET /api/notifications/unread': { any: get('/api/notifications/unread') },
  'POST /api/notifications/read': {
    any: () => ({ method: 'POST', url: '/api/notifications/read', payload: { all: true } }),
  },
  'GET /api/admin/holidays': { any: get('/api/admin/holidays') },
  'POST /api/admin/holidays': {
    any: () => ({
      method: 'POST',
      url: '/api/admin/holidays',
      payload: { date: '2027-02-01', name: 'A test holiday' },
    }),
  },
  'DELETE /api/admin/holidays/:date': {
    any: async (c) => {
      // Each try removes a day of its own, so the admin's try finds one to remove.
      await c.t.app.inject({
        method: 'POST',
        url: '/api/admin/holidays',
        headers: c.w.who.admin.headers,
        payload: { date: '2027-02-02', name: 'To remove' },
      });
      return { method: 'DELETE', url: '/api/admin/holidays/2027-02-02' };
    },
  },
  'POST /dev/scheduler/tick': { any: () => ({ method: 'POST', url: '/dev/scheduler/tick', payload: {} }) },
  'GET /api/admin/ledger': { any: get('/api/admin/ledger') },
  'GET /api/admin/ledger.csv': { any: get('/api/admin/ledger.csv') },
  'GET /api/admin/money-settings': { any: get('/api/admin/money-settings') },
  'GET /api/admin/refunds': { any: get('/api/admin/refunds') },
  'GET /api/refunds': { any: get('/api/refunds') },
  'GET /api/refunds/:id/credit-note.pdf': {
    ofA: get((c) => `/api/refunds/${c.w.refund.A}/credit-note.pdf`),
    ofB: get((c) => `/api/refunds/${c.w.refund.B}/credit-note.pdf`),
  },
  'GET /api/admin/reconciliation': { any: get('/api/admin/reconciliation') },
  'POST /api/admin/refunds/:id/retry': {
    any: () => ({ method: 'POST', url: '/api/admin/refunds/00000000-0000-4000-8000-000000000000/retry', payload: {} }),
  },
  'PUT /api/admin/money-settings': {
    any: () => ({ method: 'PUT', url: '/api/admin/money-settings', payload: { commissionPercent: 20, holdDays: 7 } }),
  },
  'GET /api/lawyer/payouts': { any: get('/api/lawyer/payouts') },
  'POST /api/lawyer/payouts': { any: (c) => ({ method: 'POST', url: '/api/lawyer/payouts', payload: { ...mass(c) } }) },
  'POST /api/lawyer/payouts/:id/cancel': Object.fromEntries(
    (['self', 'ofOther'] as const).map((v) => [
      v,
      async (c: Ctx): Promise<Req> => {
        const lawyerish = ['lawyer', 'otherLawyer', 'lawyerUnverified'].includes(c.actor);
        // A fresh waiting payout each call: the caller's own (self), or another lawyer's (ofOther).
        const owner =
          v === 'self' && lawyerish ? c.who!.id : c.actor === 'lawyer' ? c.w.who.otherLawyer.id : c.w.who.lawyer.id;
        const [p] = await c.t.rt.database.db
          .insert(payouts)
          .values({
            lawyerId: owner,
            amount: 500_000,
            bank: 'Zenith Bank',
            bankCode: '057',
            accountNumber: '0123456789',
            accountName: 'Chidi Okeke',
            provider: 'sandbox',
          })
          .returning({ id: payouts.id });
        return { method: 'POST', url: `/api/lawyer/payouts/${p.id}/cancel`, payload: { ...mass(c) } };
      },
    ]),
  ),
  'GET /api/admin/payouts': { any: get('/api/admin/payouts') },
  'POST /api/admin/payouts/:id/approve': {
    any: () => ({ method: 'POST', url: `/api/admin/payouts/${UNKNOWN_PAYOUT}/approve`, payload: {} }),
  },
  'POST /api/admin/payouts/:id/reject': {
    any: () => ({
      method: 'POST',
      url: `/api/admin/payouts/${UNKNOWN_PAYOUT}/reject`,
      payload: { reason: 'Details do not match the contract' },
    }),
  },
  'POST /api/admin/payouts/approve': {
    any: () => ({ method: 'POST', url: '/api/admin/payouts/approve', payload: { ids: [UNKNOWN_PAYOUT] } }),
  },
  'POST /api/admin/payouts/:id/sandbox-outcome': {
    any: () => ({
      method: 'POST',
      url: `/api/admin/payouts/${UNKNOWN_PAYOUT}/sandbox-outcome`,
      payload: { status: 'SUCCESSFUL' },
    }),
  },

  'POST /api/plans/subscribe': {
    any: (c) => ({ method: 'POST', url: '/api/plans/subscribe', payload: { ...mass(c), tier: 'silver' } }),
  },
  'POST /api/plans/confirm': Object.fromEntries(
    (['ofA', 'ofB'] as const).map((v) => [
      v,
      async (c: Ctx): Promise<Req> => {
        // A first payment the owner started and never paid.
        const owner = c.w.who[v === 'ofA' ? 'companyA' : 'companyB'];
        const res = await ok(c.t, owner, { method: 'POST', url: '/api/plans/subscribe', payload: { tier: 'bronze' } });
        const reference = (res.json() as { data: { reference: string } }).data.reference;
        return { method: 'POST', url: '/api/plans/confirm', payload: { ...mass(c), reference } };
      },
    ]),
  ),
  'GET /api/plans/mine': { any: get('/api/plans/mine') },
  'POST /api/plans/mine/tier': {
    any: (c) => ({ method: 'POST', url: '/api/plans/mine/tier', payload: { ...mass(c), tier: 'gold' } }),
  },
  'POST /api/plans/mine/cancel': { any: (c) => ({ method: 'POST', url: '/api/plans/mine/cancel', payload: mass(c) }) },
  'POST /api/plans/mine/requests': {
    any: (c) => ({
      method: 'POST',
      url: '/api/plans/mine/requests',
      payload: { ...mass(c), kind: 'draft', detail: 'A distribution agreement' },
    }),
  },
  'GET /api/admin/subscribers': { any: get('/api/admin/subscribers') },

  'GET /api/lawyer/:id': { any: get((c) => `/api/lawyer/${c.w.who.lawyer.id}`) },
  'GET /api/get-payment-details': { any: get('/api/get-payment-details') },
  'POST /api/add-payment-details': {
    self: (c) => ({ method: 'POST', url: '/api/add-payment-details', payload: { ...mass(c), ...accountOf(c.actor) } }),
    ofOther: (c) => ({
      method: 'POST',
      url: '/api/add-payment-details',
      payload: {
        ...accountOf(c.actor),
        lawyerId: c.actor === 'lawyer' ? c.w.who.otherLawyer.id : c.w.who.lawyer.id,
      },
    }),
  },
  'POST /api/send-otp': { any: () => ({ method: 'POST', url: '/api/send-otp' }) },
  'POST /api/confirm-otp': {
    any: async (c) => ({ method: 'POST', url: '/api/confirm-otp', payload: { otp: await payoutCode(c) } }),
  },
  'PATCH /api/edit-payment-details': Object.fromEntries(
    (['self', 'ofOther'] as const).map((v) => [
      v,
      async (c: Ctx): Promise<Req> => {
        if (['lawyer', 'otherLawyer', 'lawyerUnverified'].includes(c.actor))
          await ok(c.t, c.who, { method: 'POST', url: '/api/confirm-otp', payload: { otp: await payoutCode(c) } });
        return {
          method: 'PATCH',
          url: '/api/edit-payment-details',
          payload: {
            ...mass(c),
            ...accountOf(c.actor),
            ...(v === 'ofOther' ? { lawyerId: c.actor === 'lawyer' ? c.w.who.otherLawyer.id : c.w.who.lawyer.id } : {}),
          },
        };
      },
    ]),
  ),

  'GET /api/admin/dashboard': { any: get('/api/admin/dashboard') },
  'GET /api/admin/audit-log': { any: get('/api/admin/audit-log') },
  'GET /api/companys': { any: get('/api/companys?limit=100') },
  'GET /api/verifiedlawyers': { any: get('/api/verifiedlawyers?limit=100') },
  'GET /api/admin/lawyer-records': { any: get('/api/admin/lawyer-records?sort=rating') },
  'GET /api/unverifiedlawyers': { any: get('/api/unverifiedlawyers?limit=100') },
  'PATCH /api/verifylawyer/:id': {
    any: async (c) => ({
      method: 'PATCH',
      url: `/api/verifylawyer/${(await freshUser(c, 'lawyer')).id}`,
      payload: { ...mass(c), verified: true },
    }),
  },
  'POST /api/rejectlawyer/:id': {
    any: async (c) => ({
      method: 'POST',
      url: `/api/rejectlawyer/${(await freshUser(c, 'lawyer')).id}`,
      payload: { ...mass(c), reason: 'Your SCN does not match the roll of the NBA.' },
    }),
  },
  'GET /api/admin/payments': { any: get('/api/admin/payments?limit=100') },
  'GET /api/admin/settlement-account': { any: get('/api/admin/settlement-account') },
  'PUT /api/admin/settlement-account': {
    any: (c) => ({
      method: 'PUT',
      url: '/api/admin/settlement-account',
      payload: { ...mass(c), accountNumber: '0987654321', accountName: 'LegalMarket Ltd', bank: NIGERIAN_BANKS[1] },
    }),
  },
  'GET /job-api/unassign': { any: get('/job-api/unassign?limit=100') },
  'GET /job-api/pendingjobs': { any: get('/job-api/pendingjobs?limit=100') },
  'GET /job-api/completedjobs': { any: get('/job-api/completedjobs?limit=100') },
  'GET /job-api/admin/job/:id': { openOfA: get((c) => `/job-api/admin/job/${c.w.job.openOfA}`) },
  'POST /job-api/assign': {
    any: async (c) => {
      const job = await insertJob(c.t, c.w.who.companyA.id, { productId: c.w.product, appliedBy: [c.w.who.lawyer.id] });
      return {
        method: 'POST',
        url: '/job-api/assign',
        payload: { ...mass(c), jobId: job.id, lawyerId: c.w.who.lawyer.id },
      };
    },
  },
  'PUT /job-api/completejob/:id': {
    any: async (c) => {
      const job = await insertJob(c.t, c.w.who.companyA.id, {
        productId: c.w.product,
        status: 'pending',
        lawyerId: c.w.who.lawyer.id,
      });
      return { method: 'PUT', url: `/job-api/completejob/${job.id}`, payload: mass(c) };
    },
  },
  'PUT /job-api/editjobdetails/:id': {
    openOfA: (c) => ({
      method: 'PUT',
      url: `/job-api/editjobdetails/${c.w.job.openOfA}`,
      payload: { ...mass(c), detail: 'Admin note for the open job' },
    }),
    adminFile: (c) => ({
      method: 'PUT',
      url: `/job-api/editjobdetails/${c.w.job.openOfA}`,
      payload: { detail: 'Admin note for the open job', file: `/uploads/${c.w.adminDoc}`, fileName: 'checklist.pdf' },
    }),
    fileOfCompany: (c) => ({
      method: 'PUT',
      url: `/job-api/editjobdetails/${c.w.job.openOfA}`,
      payload: { detail: 'Admin note for the open job', file: `/uploads/${c.w.docB}`, fileName: 'x.pdf' },
    }),
  },
};

/** Company A and B each upload, fill a cart, pay; lawyers are assigned; reviews and payout details exist. */
async function buildWorld(t: TestApp): Promise<World> {
  const who = {
    companyA: await signupAndLogin(t, 'company'),
    companyB: await signupAndLogin(t, 'company'),
    lawyerUnverified: await signupAndLogin(t, 'lawyer'),
    lawyer: await signupAndLogin(t, 'lawyer', { verified: true }),
    otherLawyer: await signupAndLogin(t, 'lawyer', { verified: true }),
    admin: await signupAndLogin(t, 'admin'),
  };
  // Each account's own phone, alternative e-mail and address, told apart, so every answer is searched
  // for them too (decision 2238): sign-up gives every company one phone and every lawyer another.
  for (const [n, actor] of (['companyA', 'companyB', 'lawyerUnverified', 'lawyer', 'otherLawyer'] as const).entries())
    await t.rt.database.db.update(users).set(contactOf(n)).where(eq(users.id, who[actor].id));
  const loginTarget = await signupAndLogin(t, 'company');
  const create = async (name: string) => {
    const body = await multipart([
      { name: 'productName', value: name },
      { name: 'productPrice', value: '25000' },
      { name: 'productDescription', value: `${name}, drafted by a lawyer.` },
      { name: 'productImage', file: { data: pngBytes(), filename: 'p.png', type: 'image/png' } },
    ]);
    const res = await ok(t, who.admin, {
      method: 'POST',
      url: '/api/create',
      payload: body.payload,
      headers: body.headers,
    });
    return res.json().data.product._id as string;
  };
  const product = await create('Non-Disclosure Agreement');
  const otherProduct = await create('Trademark Registration');
  const updatable = await create('Updatable product');
  const deleted = await create('Withdrawn product');
  await ok(t, who.admin, { method: 'DELETE', url: `/api/delete/${deleted}` });

  const upload = async (owner: Login, kind: 'image' | 'document') => {
    const body =
      kind === 'image'
        ? await multipart([{ name: 'file', file: { data: pngBytes(), filename: 'logo.png', type: 'image/png' } }])
        : await pdfUpload();
    const res = await ok(t, owner, {
      method: 'POST',
      url: `/api/uploads?kind=${kind}`,
      payload: body.payload,
      headers: body.headers,
    });
    return String(res.json().data.url).split('/').pop()!;
  };
  const imgA = await upload(who.companyA, 'image');
  const docA = await upload(who.companyA, 'document');
  const docB = await upload(who.companyB, 'document');
  const openDocA = await upload(who.companyA, 'document');
  const openDocB = await upload(who.companyB, 'document');
  const plantedB = await upload(who.companyB, 'document');
  const adminDoc = await upload(who.admin, 'document');

  const pay = async (owner: Login, tag: 'A' | 'B', doc: string, openDoc: string) => {
    await ok(t, owner, {
      method: 'POST',
      url: '/api/cart',
      payload: {
        productId: product,
        quantity: 1,
        detail: `JOBDETAIL-${tag}1`,
        file: `/uploads/${doc}`,
        fileName: 'brief.pdf',
      },
    });
    t.clock.advance(1000);
    await ok(t, owner, {
      method: 'POST',
      url: '/api/cart',
      payload: {
        productId: otherProduct,
        quantity: 1,
        detail: `Open work ${tag}`,
        file: `/uploads/${openDoc}`,
        fileName: 'brief.pdf',
      },
    });
    const start = (await ok(t, owner, { method: 'POST', url: '/api/checkout' })).json().data as {
      reference: string;
      amount: number;
      orderId: string;
    };
    const charge = await ok(t, owner, {
      method: 'POST',
      url: '/api/checkout/sandbox/charge',
      payload: {
        reference: start.reference,
        amount: start.amount,
        currency: 'NGN',
        ...SUCCESS_CARD,
      },
    });
    await ok(t, owner, {
      method: 'POST',
      url: '/api/checkout/verify',
      payload: { reference: start.reference, transactionId: charge.json().data.transaction_id },
    });
    const rows = await t.rt.database.db.select().from(jobs).where(eq(jobs.orderId, start.orderId));
    return {
      order: { reference: start.reference, id: start.orderId },
      assigned: rows.find((j) => j.productId === product)!.id,
      open: rows.find((j) => j.productId === otherProduct)!.id,
    };
  };
  const a = await pay(who.companyA, 'A', docA, openDocA);
  const b = await pay(who.companyB, 'B', docB, openDocB);
  for (const [lawyer, job] of [
    [who.lawyer, a.assigned],
    [who.otherLawyer, b.assigned],
  ] as const) {
    await ok(t, lawyer, { method: 'POST', url: `/job-api/applyforjob/${job}`, payload: {} });
    await ok(t, who.admin, { method: 'POST', url: '/job-api/assign', payload: { jobId: job, lawyerId: lawyer.id } });
  }
  for (const [owner, tag, job] of [
    [who.companyA, 'A', a.assigned],
    [who.companyB, 'B', b.assigned],
  ] as const)
    await ok(t, owner, {
      method: 'PUT',
      url: `/job-api/company/editjobdetails/${job}`,
      payload: { detail: `JOBNOTE-${tag} first` },
    });
  // What the old code let company A store: B's key on A's job (now refused at the door, issue 14).
  await t.rt.database.db
    .update(jobs)
    .set({ adminFile: `/uploads/${plantedB}`, adminFileName: 'planted.pdf' })
    .where(eq(jobs.id, a.assigned));
  // A completed refund of each company's open job, written as settle leaves it, for the credit notes.
  const refundOf = async (orderId: string, jobId: string) =>
    (
      await t.rt.database.db
        .insert(refunds)
        .values({
          jobId,
          orderId,
          amount: 100_000,
          status: 'completed',
          provider: 'sandbox',
          providerRefundId: `matrix-${jobId}`,
          settledAt: t.clock.now(),
        })
        .returning({ id: refunds.id })
    )[0].id;
  const refundA = await refundOf(a.order.id, a.open);
  const refundB = await refundOf(b.order.id, b.open);
  const [attached] = await t.rt.database.db
    .select({ id: emailOutbox.id })
    .from(emailOutbox)
    .where(and(eq(emailOutbox.to, who.companyA.email), isNotNull(emailOutbox.attachments)))
    .orderBy(emailOutbox.id);
  const review = async (owner: Login, tag: string) =>
    (
      await ok(t, owner, {
        method: 'POST',
        url: '/api/rating',
        payload: { productId: product, reviewTitle: `by-company${tag}`, review: 'Clear and quick.', status: 5 },
      })
    ).json()._id as string;
  const reviewA = await review(who.companyA, 'A');
  const reviewB = await review(who.companyB, 'B');
  for (const actor of ['lawyerUnverified', 'lawyer', 'otherLawyer'] as const)
    await ok(t, who[actor], { method: 'POST', url: '/api/add-payment-details', payload: accountOf(actor) });
  await ok(t, who.admin, {
    method: 'PUT',
    url: '/api/remuneration-order',
    payload: pdfBytes('order'),
    headers: { 'content-type': 'application/pdf' },
  });

  return {
    who,
    loginTarget,
    product,
    otherProduct,
    updatable,
    deleted,
    imgA,
    docA,
    docB,
    openDocA,
    openDocB,
    plantedB,
    adminDoc,
    job: { assignedOfA: a.assigned, openOfA: a.open, assignedOfB: b.assigned, openOfB: b.open },
    order: { A: a.order, B: b.order },
    refund: { A: refundA, B: refundB },
    attachedMail: attached.id,
    review: { A: reviewA, B: reviewB },
    secrets: {
      // Company ids are public (reviews carry them). A company's job (contact, files, notes) is shared
      // with the lawyer assigned to it; its orders and cart with nobody.
      'A-job': [who.companyA.email, contactOf(0).phoneNumber, docA, a.assigned, 'JOBDETAIL-A1', 'JOBNOTE-A'],
      // What only the company itself (and admins) reads: its profile's other contacts.
      'A-profile': [contactOf(0).alternativeEmailAddress, contactOf(0).officeAddress],
      'A-private': [a.order.reference, a.order.id, 'CARTNOW-A'],
      'B-job': [who.companyB.email, contactOf(1).phoneNumber, docB, b.assigned, 'JOBDETAIL-B1', 'JOBNOTE-B'],
      'B-profile': [contactOf(1).alternativeEmailAddress, contactOf(1).officeAddress],
      'B-private': [b.order.reference, b.order.id, 'CARTNOW-B'],
      // An open job's brief is for verified lawyers; its documents' keys only for its company and
      // admins (issue 14): a lawyer opens a document only once the job is assigned to it.
      'A-brief': ['Open work A'],
      'B-brief': ['Open work B'],
      'A-openFiles': [openDocA, adminDoc],
      'B-openFiles': [openDocB],
      // B's key that A planted on its own job: A wrote it and A's lawyer reads A's job, so both see
      // the text, and neither can open it (the plantedInA cells). Nobody else sees it.
      'B-planted': [plantedB],
      // A lawyer's name and id reach the companies whose jobs it holds, its e-mail and phone nobody
      // (decision 2238); payout details reach nobody.
      ...Object.fromEntries(
        (['lawyerUnverified', 'lawyer', 'otherLawyer'] as const).flatMap((l, i) => [
          [`${l}-id`, [who[l].id]],
          [`${l}-contact`, [who[l].email, contactOf(i + 2).phoneNumber, contactOf(i + 2).alternativeEmailAddress]],
          [`${l}-private`, [accountOf(l).accountNumber]],
        ]),
      ),
    },
    signedUp: { company: [], lawyer: [] },
    passwordHash: await hashPassword(PASSWORD),
  };
}

/**
 * Whose private data each actor may see. The lawyer assigned to a company's job sees that job's
 * company contact and files; open jobs' briefs (never the company's contacts, never a document's key)
 * are for every verified lawyer, and for no unverified one (issue 14).
 */
const MAY_SEE: Record<Actor, string[]> = {
  guest: [],
  companyA: ['A-job', 'A-profile', 'A-private', 'lawyer-id', 'A-brief', 'A-openFiles', 'B-planted'],
  companyB: ['B-job', 'B-profile', 'B-private', 'otherLawyer-id', 'B-brief', 'B-openFiles', 'B-planted'],
  lawyerUnverified: ['lawyerUnverified-id', 'lawyerUnverified-contact', 'lawyerUnverified-private'],
  lawyer: ['lawyer-id', 'lawyer-contact', 'lawyer-private', 'A-job', 'A-brief', 'B-brief', 'B-planted'],
  otherLawyer: ['otherLawyer-id', 'otherLawyer-contact', 'otherLawyer-private', 'B-job', 'A-brief', 'B-brief'],
  admin: ['*'],
};

/** The table row of a route key: HEAD routes (Fastify adds one per GET) share their GET row. */
function rowKey(key: string): string {
  if (!key.startsWith('HEAD ')) return key;
  const get = key.replace(/^HEAD /, 'GET ');
  return TABLE[get] ? get : get.replace(/\/$/, '');
}

const NEVER = ['$argon2', 'passwordHash', 'password_hash', 'tokenHash', 'token_hash'];

describeEachDb('authorization matrix', (kind) => {
  let t: TestApp;
  let w: World;
  const stats = { cells: 0, routes: 0, variants: 0, unexpected2xx: 0, leaks: 0 };

  beforeAll(async () => {
    collected.length = 0;
    t = await createTestApp(kind, {
      ADMIN_INVITE_CODE: INVITE,
      IP_MAX_REQUESTS: '100000',
      EMAIL_ACTION_MAX: '1000',
    });
    w = await buildWorld(t);
  }, 180_000);
  afterAll(async () => {
    console.info(`authz matrix [${kind}]: ${JSON.stringify(stats)}`);
    await t?.close();
  });

  it('has exactly one table row and one request builder for every registered route', () => {
    const all = routeKeys(collected);
    const keys = all.filter((k) => !k.startsWith('HEAD '));
    const heads = all.filter((k) => k.startsWith('HEAD '));
    expect(
      heads.filter((k) => !TABLE[rowKey(k)]),
      'HEAD routes without a GET row',
    ).toEqual([]);
    expect(keys.length).toBeGreaterThan(60);
    const missing = keys.filter((k) => !TABLE[k]);
    expect(missing, 'routes registered but missing from authz-table.ts').toEqual([]);
    const stale = Object.keys(TABLE).filter((k) => !keys.includes(k));
    expect(stale, 'rows of routes that no longer exist').toEqual([]);
    for (const [key, variants] of Object.entries(TABLE))
      expect(Object.keys(REQUESTS[key] ?? {}).sort(), `request builders of ${key}`).toEqual(
        Object.keys(variants).sort(),
      );
  });

  it('answers every cell as the table says, never 2xx where it should not, and never shows another tenant’s data', async () => {
    const failures: string[] = [];
    const keys = routeKeys(collected).filter((k) => TABLE[rowKey(k)]);
    stats.routes = keys.length;
    for (const key of keys) {
      const row = TABLE[rowKey(key)];
      const head = key.startsWith('HEAD ');
      for (const [variant, expected] of Object.entries(row)) {
        stats.variants++;
        for (const actor of ACTORS) {
          const who = actor === 'guest' ? null : w.who[actor];
          const c: Ctx = { actor, who, w, t };
          const req = await REQUESTS[rowKey(key)][variant](c);
          const res = await inject(t, who, head ? { ...req, method: 'HEAD' } : req);
          stats.cells++;
          const want: Outcome = expected[actor];
          const got = res.statusCode;
          const label = `${key} [${variant}] as ${actor}`;
          const allowed = got >= 200 && got < 400;
          if (want === 'ok' ? !allowed : got !== want)
            failures.push(`${label}: expected ${want}, got ${got} ${res.body.slice(0, 160)}`);
          if (want !== 'ok' && got >= 200 && got < 300) stats.unexpected2xx++;
          if (!allowed && !head) {
            const body = res.json() as { status?: string; message?: unknown };
            if (body.status !== 'fail' || typeof body.message !== 'string')
              failures.push(`${label}: refusal without { status: "fail", message }: ${res.body.slice(0, 160)}`);
          }
          if (key.endsWith('/dev/mailbox')) continue; // development only: every mail, by design
          const text = res.body;
          for (const s of NEVER) if (text.includes(s)) failures.push(`${label}: answer contains ${s}`);
          for (const [owner, secrets] of Object.entries(w.secrets)) {
            if (MAY_SEE[actor].includes(owner) || MAY_SEE[actor].includes('*')) continue;
            for (const s of secrets)
              if (text.includes(s)) {
                stats.leaks++;
                failures.push(`${label}: answer contains ${owner}'s ${s}`);
              }
          }
        }
      }
    }
    expect(failures).toEqual([]);
    expect(stats.unexpected2xx).toBe(0);
    expect(stats.leaks).toBe(0);
  }, 300_000);

  it('lets no body set role, userType, verified, status, price, companyId or assignedTo (checked in the database)', async () => {
    const db = t.rt.database.db;
    const byId = async (id: string) => (await db.select().from(users).where(eq(users.id, id)))[0];
    for (const [actor, type, verified] of [
      ['companyA', 'company', false],
      ['companyB', 'company', false],
      ['lawyerUnverified', 'lawyer', false],
      ['lawyer', 'lawyer', true],
      ['otherLawyer', 'lawyer', true],
      ['admin', 'admin', false],
    ] as const) {
      const row = await byId(w.who[actor].id);
      expect(row.userType, actor).toBe(type);
      expect(row.verified, actor).toBe(verified);
      expect(row.name, actor).not.toBe('Mallory');
      expect(row.companyName ?? '', actor).not.toBe('Mallory Ltd');
      expect(row.passwordHash).toMatch(/^\$argon2id\$/);
    }
    const signed = await db
      .select()
      .from(users)
      .where(inArray(users.officialEmail, [...w.signedUp.company, ...w.signedUp.lawyer]));
    expect(signed).toHaveLength(w.signedUp.company.length + w.signedUp.lawyer.length);
    for (const u of signed) {
      expect(u.userType).toBe(w.signedUp.company.includes(u.officialEmail) ? 'company' : 'lawyer');
      expect(u.verified).toBe(false);
      expect(u.emailConfirmedAt).toBeNull();
    }

    const job = async (id: string) => (await db.select().from(jobs).where(eq(jobs.id, id)))[0];
    const [jA, jB, open] = [await job(w.job.assignedOfA), await job(w.job.assignedOfB), await job(w.job.openOfA)];
    expect(jA).toMatchObject({
      companyId: w.who.companyA.id,
      assignedTo: w.who.lawyer.id,
      status: 'pending',
      amount: 2_500_000,
    });
    expect(jB).toMatchObject({
      companyId: w.who.companyB.id,
      assignedTo: w.who.otherLawyer.id,
      status: 'pending',
      amount: 2_500_000,
    });
    expect(open).toMatchObject({
      companyId: w.who.companyA.id,
      assignedTo: null,
      status: 'unassigned',
      amount: 2_500_000,
    });
    expect(jA.companyDetail).toBe('JOBNOTE-A set by companyA');
    expect(jB.companyDetail).toBe('JOBNOTE-B set by companyB');
    // Applications come from the session's lawyer only.
    const apps = await db.select().from(jobApplications).where(eq(jobApplications.jobId, w.job.openOfA));
    expect(apps.map((a) => a.lawyerId).sort()).toEqual([w.who.lawyer.id, w.who.otherLawyer.id].sort());

    const [p] = await db.select().from(products).where(eq(products.id, w.product));
    expect(p.productPrice).toBe(2_500_000);
    expect(p.deletedAt).toBeNull();
    const made = await db.select().from(products).where(eq(products.productName, 'Made by admin'));
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({ productPrice: 2_500_000, deletedAt: null });
    const [u] = await db.select().from(products).where(eq(products.id, w.updatable));
    expect(u.productPrice).toBe(3_000_000);

    const revs = await db.select().from(reviews);
    for (const r of revs) {
      const author = r.reviewTitle.replace(/^by-/, '') as 'companyA' | 'companyB';
      expect(r.companyId, r.reviewTitle).toBe(w.who[author].id);
      expect(r.productId).toBe(w.product);
    }
    const cart = await db.select().from(cartItems);
    for (const line of cart) {
      expect([w.who.companyA.id, w.who.companyB.id]).toContain(line.companyId);
      expect(line.detail ?? '').toBe(line.companyId === w.who.companyA.id ? 'CARTNOW-A' : 'CARTNOW-B');
    }
    for (const o of await db.select().from(orders)) expect(o.amount % 2_500_000).toBe(0);

    const payouts = await db.select().from(payoutDetails);
    for (const actor of ['lawyerUnverified', 'lawyer', 'otherLawyer'] as const) {
      // The account name saved is the bank's (decision 1710), so number and bank are what the body set.
      const { accountNumber, bank } = accountOf(actor);
      expect(payouts.find((r) => r.lawyerId === w.who[actor].id)).toMatchObject({ accountNumber, bank });
    }
  });
});

describe('the development mailbox (a public row of the table)', () => {
  it('is not registered in production', async () => {
    const prod = await createTestApp('pglite', { NODE_ENV: 'production', JWT_SECRET: 'p'.repeat(48) });
    try {
      const res = await prod.app.inject({ method: 'GET', url: '/dev/mailbox?format=json' });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ status: 'fail', message: 'Not found' });
      // Nor is the scheduler's development trigger.
      const tick = await prod.app.inject({ method: 'POST', url: '/dev/scheduler/tick', payload: {} });
      expect(tick.statusCode).toBe(404);
      // Nor the step-up's development shortcut.
      const forget = await prod.app.inject({ method: 'POST', url: '/dev/two-factor/forget-code' });
      expect(forget.statusCode).toBe(404);
    } finally {
      await prod.close();
    }
  });
});
