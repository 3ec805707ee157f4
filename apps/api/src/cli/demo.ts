import path from 'node:path';
import { desc, eq } from 'drizzle-orm';
import { BANK_CODES, toKobo } from '@legalmarket/contracts';
import { buildApp } from '../app.js';
import { ConfigError, loadConfig, type Config } from '../config.js';
import type { Db } from '../db/client.js';
import {
  appSettings,
  auditLog,
  jobApplications,
  jobs,
  orders,
  payoutDetails,
  products,
  reviews,
  users,
} from '../db/schema.js';
import { hashPassword } from '../platform/passwords.js';
import type { Storage } from '../platform/storage.js';
import type { Clock } from '../platform/clock.js';
import { SANDBOX_ACCOUNT_HOLDERS } from '../platform/payments/sandbox.js';
import { tokenHasher } from '../platform/tokens.js';
import { seedCatalogue } from '../features/catalogue/seed.js';
import { createLedger } from '../features/money/ledger.js';
import { createUploadsService, detectFile } from '../features/uploads/service.js';
import { openRuntime, appDeps } from '../runtime.js';

/**
 * `npm run demo`: the marketplace on its own data directory (./data-demo, or DEMO_DATA_DIR) with a
 * demo company, a verified and an unverified lawyer, an admin, and jobs in every state, so a
 * newcomer can try every role in a minute. Never in production; never on a real database.
 */
export const DEMO_PASSWORD = 'Demo!2345';
export const DEMO_USERS = {
  admin: 'admin@demo.legalmarket.ng',
  company: 'company@demo.legalmarket.ng',
  lawyer: 'lawyer@demo.legalmarket.ng',
  newLawyer: 'new.lawyer@demo.legalmarket.ng',
} as const;
const DEMO_SETTING = 'demo_seeded';

/** A small but real PDF, so the document links of the demo jobs download something. */
const pdf = (title: string, lines: string[]) => {
  const text = [title, ...lines]
    .map((l, i) => `BT /F1 12 Tf 50 ${760 - i * 18} Td (${l.replace(/[()\\]/g, '')}) Tj ET`)
    .join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${text.length} >>\nstream\n${text}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
};

export function demoConfig(env: Record<string, string | undefined> = process.env): Config {
  if (env.NODE_ENV === 'production') {
    throw new ConfigError(
      'npm run demo refuses to run with NODE_ENV=production: it creates well-known demo logins. Use npm start instead.',
    );
  }
  return loadConfig({
    ...env,
    NODE_ENV: env.NODE_ENV === 'test' ? 'test' : 'development',
    DATA_DIR: env.DEMO_DATA_DIR ?? './data-demo',
    // Never on a real database, never real mail: the demo's mail stays in the outbox (/dev/mailbox).
    DATABASE_URL: undefined,
    SMTP_URL: undefined,
    PAYMENT_PROVIDER: 'sandbox',
    SEED_CATALOGUE: 'true',
    LOG_LEVEL: env.LOG_LEVEL ?? 'warn',
  });
}

/** Fills an empty demo database once; answers false when it was already filled. */
export async function seedDemo(deps: { db: Db; storage: Storage; clock: Clock; config: Config; secret: string }) {
  const { db, clock } = deps;
  const hashToken = tokenHasher(deps.secret);
  await seedCatalogue({ ...deps, hashToken });
  const done = await db.select().from(appSettings).where(eq(appSettings.key, DEMO_SETTING)).limit(1);
  if (done.length) return false;

  const catalogue = await db.select().from(products).orderBy(desc(products.createdAt)).limit(6);
  if (catalogue.length < 4) throw new Error('The demo needs the starting catalogue (apps/api/seed).');
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const uploads = createUploadsService({ ...deps, hashToken });
  const now = clock.now();
  const ago = (days: number) => new Date(now.getTime() - days * 86_400_000);

  await db.transaction(async (tx) => {
    const confirmed = { passwordHash, emailConfirmedAt: ago(30) };
    const [admin, company, lawyer, newLawyer] = await tx
      .insert(users)
      .values([
        {
          ...confirmed,
          userType: 'admin',
          officialEmail: DEMO_USERS.admin,
          name: 'Ngozi Admin',
          phoneNumber: '08030000001',
          createdAt: ago(40),
        },
        {
          ...confirmed,
          userType: 'company',
          officialEmail: DEMO_USERS.company,
          name: 'Kola Pay Ltd',
          companyName: 'Kola Pay Ltd',
          contactName: 'Tunde Bakare',
          phoneNumber: '08030000002',
          officeAddress: '14 Admiralty Way, Lekki, Lagos',
          industry: 'Fintech',
          cac: 'RC1823456',
          website: 'https://kolapay.example.ng',
          yourBio: 'Payments for market traders across Lagos and Ibadan.',
          createdAt: ago(35),
        },
        {
          ...confirmed,
          userType: 'lawyer',
          officialEmail: DEMO_USERS.lawyer,
          name: 'Chiamaka Eze',
          phoneNumber: '08030000003',
          scn: 'SCN045678',
          lawFirmName: 'Eze & Partners',
          lawFirmAddress: '3 Broad Street, Lagos Island',
          areasOfPractise: ['Technology', 'Tax Practise', 'International Trade and Investment'],
          yearOfCall: '2014',
          yourBio: 'Commercial lawyer advising Nigerian startups on contracts, tax and data protection.',
          verified: true,
          createdAt: ago(33),
        },
        {
          ...confirmed,
          userType: 'lawyer',
          officialEmail: DEMO_USERS.newLawyer,
          name: 'Ibrahim Musa',
          phoneNumber: '08030000004',
          scn: 'SCN098765',
          areasOfPractise: ['Maritime', 'Entertainment'],
          yearOfCall: '2019',
          verified: false,
          createdAt: ago(2),
        },
      ])
      .returning();

    const doc = async (name: string, owner: string, lines: string[]) => {
      const data = pdf(name, lines);
      const saved = await uploads.store(
        {
          fieldName: 'file',
          originalName: name,
          data,
          kind: 'document',
          detected: await detectFile(data, 'document', name),
        },
        owner,
        tx,
      );
      return saved;
    };
    const companyBrief = await doc('kola-pay-merchant-agreement.pdf', company.id, [
      'Merchant agreement (draft)',
      'Kola Pay Ltd and the bank',
    ]);
    const adminNote = await doc('nda-checklist.pdf', admin.id, ['NDA checklist', 'Parties, term, data room']);

    // One paid order with four lines: one job per state, plus a second open job nobody applied for.
    const lines = catalogue.slice(0, 4);
    const total = lines.reduce((n, p) => n + p.productPrice, 0);
    const [paid] = await tx
      .insert(orders)
      .values({
        companyId: company.id,
        txRef: 'demo-order-0001',
        amount: total,
        status: 'paid',
        provider: 'sandbox',
        providerTransactionId: 'demo-tx-1',
        title: lines[0].productName,
        lines: lines.map((p, i) => ({
          lineNo: i + 1,
          productId: p.id,
          productName: p.productName,
          unitPrice: p.productPrice,
          quantity: 1,
          amount: p.productPrice,
          detail: null,
          file: null,
          fileName: null,
        })),
        createdAt: ago(20),
        paidAt: ago(20),
      })
      .returning();
    await tx.insert(orders).values({
      companyId: company.id,
      txRef: 'demo-order-0002',
      amount: catalogue[4]?.productPrice ?? toKobo(25000),
      status: 'failed',
      provider: 'sandbox',
      title: (catalogue[4] ?? catalogue[0]).productName,
      lines: [],
      createdAt: ago(6),
    });

    const job = (i: number, extra: Partial<typeof jobs.$inferInsert>) => ({
      orderId: paid.id,
      lineNo: i + 1,
      companyId: company.id,
      productId: lines[i].id,
      quantity: 1,
      amount: lines[i].productPrice,
      createdAt: ago(20 - i),
      updatedAt: ago(20 - i),
      ...extra,
    });
    const [open, pending, completed, quiet] = await tx
      .insert(jobs)
      .values([
        job(0, {
          status: 'unassigned',
          detail: 'Please review our merchant agreement with the bank before we sign it; it is attached.',
          companyDetail: 'Please review our merchant agreement with the bank before we sign it; it is attached.',
          companyFile: companyBrief.url,
          companyFileName: companyBrief.fileName,
        }),
        job(1, {
          status: 'pending',
          detail: 'A mutual NDA for our talks with a Series A investor.',
          companyDetail: 'A mutual NDA for our talks with a Series A investor.',
          lawyerRequestedDetail: 'Who are the parties, and should the NDA cover the data room?',
          adminDetail: 'The company’s term sheet summary and our checklist are attached.',
          adminFile: adminNote.url,
          adminFileName: adminNote.fileName,
          assignedTo: lawyer.id,
          assignedAt: ago(10),
        }),
        job(2, {
          status: 'completed',
          detail: 'A service agreement for our field agents in Lagos and Ibadan.',
          companyDetail: 'A service agreement for our field agents in Lagos and Ibadan.',
          assignedTo: lawyer.id,
          assignedAt: ago(15),
          completedAt: ago(5),
        }),
        job(3, { status: 'unassigned', detail: 'Three founders; we need vesting and a leaver clause.' }),
      ])
      .returning();
    // The demo's money goes through the ledger like real money: held per job, the completed job earned.
    const ledger = createLedger({ db, clock });
    await ledger.recordPayment(tx, paid, [open, pending, completed, quiet]);
    await ledger.recordEarning(tx, completed);
    await tx.insert(jobApplications).values([
      { jobId: open.id, lawyerId: lawyer.id, createdAt: ago(3) },
      { jobId: open.id, lawyerId: newLawyer.id, createdAt: ago(1) },
    ]);

    await tx.insert(reviews).values([
      {
        companyId: company.id,
        productId: lines[2].id,
        reviewTitle: 'Clear and quick',
        review: 'The agreement was ready in a week and every clause was explained in plain words.',
        status: 5,
        date: ago(4),
      },
      {
        companyId: company.id,
        productId: lines[0].id,
        reviewTitle: 'Good value',
        review: 'Fair price for a careful review; we would have liked a call to go through it.',
        status: 4,
        date: ago(2),
      },
    ]);
    // Resolved as the sandbox bank holds it (0123456781 is NGOZI EZE's), so the demo lawyer can withdraw.
    await tx.insert(payoutDetails).values({
      lawyerId: lawyer.id,
      accountNumber: '0123456781',
      accountName: SANDBOX_ACCOUNT_HOLDERS[1],
      bank: 'Zenith Bank',
      bankCode: BANK_CODES['Zenith Bank'],
      resolvedAt: now,
    });
    await tx.insert(appSettings).values({
      key: 'settlement_account',
      value: { accountNumber: '1234567890', accountName: 'LegalMarket Demo Ltd', bank: 'Access Bank' },
    });
    await tx.insert(auditLog).values([
      {
        actorId: admin.id,
        action: 'lawyer.verify',
        targetType: 'lawyer',
        targetId: lawyer.id,
        details: { name: lawyer.name, officialEmail: lawyer.officialEmail },
        createdAt: ago(32),
      },
      {
        actorId: admin.id,
        action: 'job.assign',
        targetType: 'job',
        targetId: completed.id,
        details: { lawyerId: lawyer.id, lawyerName: lawyer.name, productName: lines[2].productName },
        createdAt: ago(15),
      },
      {
        actorId: admin.id,
        action: 'job.assign',
        targetType: 'job',
        targetId: pending.id,
        details: { lawyerId: lawyer.id, lawyerName: lawyer.name, productName: lines[1].productName },
        createdAt: ago(10),
      },
      {
        actorId: admin.id,
        action: 'job.add_details',
        targetType: 'job',
        targetId: pending.id,
        details: { productName: lines[1].productName, withFile: true, fileName: adminNote.fileName },
        createdAt: ago(9),
      },
      {
        actorId: admin.id,
        action: 'job.complete',
        targetType: 'job',
        targetId: completed.id,
        details: { productName: lines[2].productName },
        createdAt: ago(5),
      },
    ]);
    await tx.insert(appSettings).values({ key: DEMO_SETTING, value: { at: now.toISOString() } });
  });
  return true;
}

async function main() {
  let config: Config;
  try {
    config = demoConfig();
  } catch (err) {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  }
  const rt = await openRuntime(config);
  const seeded = await seedDemo({
    db: rt.database.db,
    storage: rt.storage,
    clock: rt.clock,
    config,
    secret: rt.secret,
  });
  const app = await buildApp(appDeps(rt));
  await app.listen({ port: config.PORT, host: config.HOST });
  const url = config.PUBLIC_URL;
  const rows = [
    ['admin', DEMO_USERS.admin, ''],
    ['company', DEMO_USERS.company, ''],
    ['lawyer', DEMO_USERS.lawyer, '(verified)'],
    ['lawyer', DEMO_USERS.newLawyer, '(not verified yet)'],
  ];
  console.log(
    [
      '',
      `LegalMarket demo is running at ${url}`,
      `Data: ${path.resolve(config.DATA_DIR)} (${seeded ? 'demo data created' : 'demo data already there'}; delete the folder to start over)`,
      '',
      `Demo logins (password for all: ${DEMO_PASSWORD}), log in at ${url}/login:`,
      ...rows.map(([role, email, note]) => `  ${role.padEnd(8)} ${email.padEnd(34)} ${note}`),
      '',
      `E-mails stay in the outbox: ${url}/dev/mailbox`,
      'Stop with Ctrl+C.',
      '',
    ].join('\n'),
  );

  let closing = false;
  const shutdown = async () => {
    if (closing) return;
    closing = true;
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    await app.close();
    await rt.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown());
  process.on('SIGTERM', () => void shutdown());
}

const isMain = process.argv[1] && path.resolve(process.argv[1]).endsWith(path.join('cli', 'demo.ts'));
if (isMain)
  main().catch((err) => {
    console.error(`The demo failed to start: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  });
