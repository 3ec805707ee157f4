import { createRequire } from 'node:module';
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import PDFDocument from 'pdfkit';
import { VAT_RATE_PERCENT, messages, vatIncludedKobo, type CompanyRefund } from '@legalmarket/contracts';
import type { Shared } from '../shared.js';
import type { Executor } from '../../db/client.js';
import { jobs, orders, products, refunds, users } from '../../db/schema.js';
import type { AuthUser } from '../../platform/auth.js';
import { conflict, notFound } from '../../platform/errors.js';
import type { AttachmentRenderer, MailAttachment } from '../../platform/mailer.js';

// DejaVu Sans, from npm so every machine renders the same: it has the naira sign and the letters of
// Yoruba, Igbo and Hausa names, which the PDF standard fonts (WinAnsi) do not (docs/decisions/1720).
const require = createRequire(import.meta.url);

/** What a refund of a monthly plan's payment is listed as: it has no order's title (decision 2262). */
export const PLAN_PAYMENT_TITLE = 'Monthly plan payment';
const FONT = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf');
const FONT_BOLD = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf');

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const REFUND_NOT_FOUND = 'Refund not found';
const NOT_PAID = 'This order is not paid, so it has no receipt';
const NOT_REFUNDED = 'This refund is not completed, so it has no credit note yet';

type Order = typeof orders.$inferSelect;
/** What the receipt reads of an order's frozen lines (checkout/service.ts OrderLine). */
type OrderLine = {
  lineNo: number;
  productName: string;
  unitPrice: number;
  quantity: number;
  amount: number;
  /** A plan's discount on the line, when it had one (decision 1900). */
  listPrice?: number;
  percentOff?: number;
};
type BilledTo = NonNullable<Order['billedTo']>;

export interface PdfFile {
  filename: string;
  content: Buffer;
}

/** ₦1,234.50: naira with kobo, as a receipt prints money. */
export const receiptNaira = (kobo: number) =>
  `₦${(kobo / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

const lagosDate = (d: Date) =>
  new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'Africa/Lagos' }).format(
    d,
  );

/** Flutterwave's `payment_type` (and the sandbox's) in words. */
export function paymentMethodWords(type: string | null): string {
  if (!type) return 'Not recorded';
  const t = type.toLowerCase();
  if (t === 'card') return 'Card';
  if (t.startsWith('mobilemoney')) return 'Mobile money';
  if (t === 'ussd') return 'USSD';
  if (t === 'bank_transfer' || t === 'banktransfer') return 'Bank transfer';
  if (t === 'account') return 'Bank account';
  return type.replace(/_/g, ' ');
}

/** The file names mail and downloads use: only the reference's safe characters. */
const safe = (s: string) => s.replace(/[^A-Za-z0-9-]/g, '_');
export const receiptFilename = (reference: string) => `receipt-${safe(reference)}.pdf`;
export const creditNoteNumber = (reference: string, lineNo: number | string) => `CN-${reference}-${lineNo}`;
/**
 * What follows the reference in a credit note's number: the cancelled job's line, or for a refund of
 * money a payment paid for nothing (no job, decision 2250) `T` and the provider transaction it gives back.
 */
export const creditNoteSuffix = (lineNo: number | null, transactionId: string | null) =>
  lineNo ?? `T${transactionId ?? ''}`;
export const creditNoteFilename = (reference: string, lineNo: number | string) =>
  `credit-note-${safe(creditNoteNumber(reference, lineNo))}.pdf`;

interface Sheet {
  title: string;
  /** Label and value rows under the title. */
  facts: [string, string][];
  billedTo: BilledTo;
  /** `unitPrice` null: the amount is not a whole number of kobo per unit, so no unit price is printed. */
  lines: { name: string; quantity: number; unitPrice: number | null; amount: number }[];
  total: number;
  totalLabel: string;
  /** Rows under the total, label and amount (a receipt's completed refunds and what stays paid). */
  after?: { label: string; value: string; bold?: boolean }[];
  footer: string[];
  /** Fixed, so the same document renders the same bytes every time. */
  createdAt: Date;
}

/**
 * One A4 page (more when the lines run over) with the seller, the document's facts, the company billed,
 * the lines, the VAT included and the total. Deterministic: the same sheet gives the same bytes.
 */
function renderSheet(s: Sheet, supportEmail: string): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: 50,
    info: { Title: s.title, Author: 'LegalMarket', Creator: 'LegalMarket', CreationDate: s.createdAt },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  doc.registerFont('body', FONT);
  doc.registerFont('bold', FONT_BOLD);
  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;
  const bottom = () => doc.page.height - doc.page.margins.bottom;

  doc.font('bold').fontSize(20).text('LegalMarket', left, 50);
  doc.font('body').fontSize(9).fillColor('#475569').text(`Fixed-price legal services · ${supportEmail}`);
  doc.moveDown(1.2).fillColor('#0f172a').font('bold').fontSize(16).text(s.title);
  doc.moveDown(0.4).fontSize(10);
  for (const [label, value] of s.facts) {
    doc.font('bold').text(`${label}: `, { continued: true }).font('body').text(value);
  }
  doc.moveDown(0.8).font('bold').text('Billed to');
  doc.font('body').text(s.billedTo.name, { width });
  if (s.billedTo.address) doc.text(s.billedTo.address, { width });
  if (s.billedTo.email) doc.text(s.billedTo.email, { width });

  // Item | Qty | Unit price | Amount
  const cols = [
    { x: left, w: width - 250, align: 'left' as const },
    { x: left + width - 250, w: 40, align: 'right' as const },
    { x: left + width - 200, w: 95, align: 'right' as const },
    { x: left + width - 95, w: 95, align: 'right' as const },
  ];
  const row = (cells: string[], font: 'body' | 'bold') => {
    doc.font(font).fontSize(10);
    const h = Math.max(...cells.map((c, i) => doc.heightOfString(c, { width: cols[i].w })));
    if (doc.y + h > bottom()) doc.addPage();
    const y = doc.y;
    cells.forEach((c, i) => doc.text(c, cols[i].x, y, { width: cols[i].w, align: cols[i].align }));
    doc.x = left;
    doc.y = y + h + 6;
  };
  doc.moveDown(1.2);
  row(['Item', 'Qty', 'Unit price', 'Amount'], 'bold');
  doc
    .moveTo(left, doc.y - 3)
    .lineTo(left + width, doc.y - 3)
    .strokeColor('#cbd5e1')
    .stroke();
  for (const l of s.lines)
    row(
      [l.name, String(l.quantity), l.unitPrice === null ? '—' : receiptNaira(l.unitPrice), receiptNaira(l.amount)],
      'body',
    );
  doc
    .moveTo(left, doc.y)
    .lineTo(left + width, doc.y)
    .stroke();
  doc.moveDown(0.6);
  const sums: [string, string, 'body' | 'bold'][] = [
    [`Tax (incl) · VAT ${VAT_RATE_PERCENT}%`, receiptNaira(vatIncludedKobo(s.total)), 'body'],
    [s.totalLabel, receiptNaira(s.total), 'bold'],
    ...(s.after ?? []).map((a): [string, string, 'body' | 'bold'] => [a.label, a.value, a.bold ? 'bold' : 'body']),
  ];
  for (const [label, value, font] of sums) {
    doc.font(font).fontSize(font === 'bold' ? 12 : 10);
    // A long label (a credit note's number) wraps: the next row starts below the taller of the two.
    const h = Math.max(doc.heightOfString(label, { width: width - 110 }), doc.heightOfString(value, { width: 110 }));
    if (doc.y + h > bottom()) doc.addPage();
    const y = doc.y;
    doc.text(label, left, y, { width: width - 110, align: 'right' });
    doc.text(value, left + width - 110, y, { width: 110, align: 'right' });
    doc.x = left;
    doc.y = y + h;
    doc.moveDown(0.3);
  }
  doc.moveDown(1.5).font('body').fontSize(9).fillColor('#475569');
  for (const f of s.footer) doc.text(f, left, doc.y, { width });
  doc.end();
  return done;
}

type ReceiptsDeps = Pick<Shared, 'db' | 'config'>;

/** Receipts of paid orders and credit notes of completed refunds, as PDFs (issue 17, item 2). */
export function createReceipts(deps: ReceiptsDeps) {
  const { db, config } = deps;

  /** The company as the receipt names it: frozen at payment (0008), else as it is now. */
  async function billedToOf(ex: Executor, order: Order): Promise<BilledTo> {
    if (order.billedTo) return order.billedTo;
    const [u] = await ex.select().from(users).where(eq(users.id, order.companyId));
    return companyAsBilled(u);
  }

  /**
   * The order's completed refunds, oldest first, as its receipt names them: a receipt downloaded after
   * a refund says what was given back and under which credit note (decision 2222).
   */
  async function refundsOf(ex: Executor, order: Order) {
    // A payment other than the one this receipt is for (paid twice) is not part of it.
    const rows = await ex
      .select({ amount: refunds.amount, lineNo: jobs.lineNo, transactionId: refunds.providerTransactionId })
      .from(refunds)
      .leftJoin(jobs, eq(jobs.id, refunds.jobId))
      .where(
        and(
          eq(refunds.orderId, order.id),
          eq(refunds.status, 'completed'),
          sql`${refunds.providerTransactionId} is null or ${refunds.providerTransactionId} = ${order.providerTransactionId}`,
        ),
      )
      .orderBy(asc(refunds.settledAt), asc(jobs.lineNo));
    return rows.map((r) => ({ amount: r.amount, suffix: creditNoteSuffix(r.lineNo, r.transactionId) }));
  }

  function receiptSheet(order: Order, billedTo: BilledTo, refunded: Awaited<ReturnType<typeof refundsOf>>): Sheet {
    const paidAt = order.paidAt ?? order.updatedAt;
    const back = refunded.reduce((sum, r) => sum + r.amount, 0);
    return {
      title: 'Receipt',
      createdAt: paidAt,
      facts: [
        ['Receipt number', order.txRef],
        ['Date', lagosDate(paidAt)],
        [
          'Payment reference',
          `${order.provider === 'flutterwave' ? 'Flutterwave' : 'Sandbox'} transaction ${order.providerTransactionId ?? '—'}`,
        ],
        ['Payment method', paymentMethodWords(order.paymentMethod)],
      ],
      billedTo,
      lines: (order.lines as OrderLine[]).map((l) => ({
        name:
          l.percentOff && l.listPrice
            ? `${l.productName} (plan discount: ${l.percentOff}% off ${receiptNaira(l.listPrice)})`
            : l.productName,
        quantity: l.quantity,
        unitPrice: l.unitPrice,
        amount: l.amount,
      })),
      total: order.amount,
      totalLabel: 'Total paid (NGN)',
      after: refunded.length
        ? [
            ...refunded.map((r) => ({
              // The date is on the credit note; the number alone keeps the label on one line.
              label: `Refunded (credit note ${creditNoteNumber(order.txRef, r.suffix)})`,
              value: `-${receiptNaira(r.amount)}`,
            })),
            { label: 'Paid after refunds (NGN)', value: receiptNaira(order.amount - back), bold: true },
          ]
        : undefined,
      footer: [
        `Prices include VAT at ${VAT_RATE_PERCENT}%. Amounts are in Nigerian naira.`,
        `Questions about this payment: ${config.SUPPORT_EMAIL}, quoting ${order.txRef}.`,
      ],
    };
  }

  async function receiptOf(ex: Executor, order: Order): Promise<PdfFile> {
    const sheet = receiptSheet(order, await billedToOf(ex, order), await refundsOf(ex, order));
    return { filename: receiptFilename(order.txRef), content: await renderSheet(sheet, config.SUPPORT_EMAIL) };
  }

  async function creditNoteRow(refundId: string) {
    const [r] = await db
      .select({
        refund: refunds,
        order: orders,
        lineNo: jobs.lineNo,
        quantity: jobs.quantity,
        product: products.productName,
      })
      .from(refunds)
      .leftJoin(orders, eq(orders.id, refunds.orderId))
      .leftJoin(jobs, eq(jobs.id, refunds.jobId))
      .leftJoin(products, eq(products.id, jobs.productId))
      .where(eq(refunds.id, refundId));
    return r;
  }

  /** Whose refund it is: the order's company, or the one a plan payment's refund names (decision 2262). */
  const companyOfRefund = (r: NonNullable<Awaited<ReturnType<typeof creditNoteRow>>>) =>
    r.order?.companyId ?? r.refund.companyId;

  /** The credit note of a refund of a monthly plan's payment that paid nothing: no order, no receipt line. */
  async function planCreditNoteOf(refund: typeof refunds.$inferSelect): Promise<PdfFile> {
    const reference = refund.reference ?? '';
    const settledAt = refund.settledAt ?? refund.updatedAt;
    const suffix = creditNoteSuffix(null, refund.providerTransactionId);
    const [u] = await db.select().from(users).where(eq(users.id, refund.companyId!));
    const sheet: Sheet = {
      title: 'Credit note',
      createdAt: settledAt,
      facts: [
        ['Credit note number', creditNoteNumber(reference, suffix)],
        ['Date', lagosDate(settledAt)],
        ['Payment reference', reference],
        [
          'Refund reference',
          `${refund.provider === 'flutterwave' ? 'Flutterwave' : 'Sandbox'} refund ${refund.providerRefundId ?? '—'}`,
        ],
        ['Refunded to', 'the card or account the payment was made with'],
        ['Payment refunded', `transaction ${refund.providerTransactionId}`],
        ...(refund.reason ? ([['Reason', refund.reason]] as [string, string][]) : []),
      ],
      billedTo: companyAsBilled(u),
      lines: [
        {
          name: `${PLAN_PAYMENT_TITLE} (paid for nothing)`,
          quantity: 1,
          unitPrice: refund.amount,
          amount: refund.amount,
        },
      ],
      total: refund.amount,
      totalLabel: 'Total refunded (NGN)',
      footer: [
        `The refund includes VAT at ${VAT_RATE_PERCENT}%. Amounts are in Nigerian naira.`,
        `Questions about this refund: ${config.SUPPORT_EMAIL}, quoting ${reference}.`,
      ],
    };
    return { filename: creditNoteFilename(reference, suffix), content: await renderSheet(sheet, config.SUPPORT_EMAIL) };
  }

  async function creditNoteOf(r: NonNullable<Awaited<ReturnType<typeof creditNoteRow>>>): Promise<PdfFile> {
    const { refund, order } = r;
    if (!order) return planCreditNoteOf(refund);
    const settledAt = refund.settledAt ?? refund.updatedAt;
    const line = (order.lines as OrderLine[]).find((l) => l.lineNo === r.lineNo);
    const paidForLine = line?.amount;
    const quantity = Math.max(1, r.quantity ?? 1);
    const suffix = creditNoteSuffix(r.lineNo, refund.providerTransactionId);
    const sheet: Sheet = {
      title: 'Credit note',
      createdAt: settledAt,
      facts: [
        ['Credit note number', creditNoteNumber(order.txRef, suffix)],
        ['Date', lagosDate(settledAt)],
        ['Refers to receipt', order.txRef],
        [
          'Refund reference',
          `${order.provider === 'flutterwave' ? 'Flutterwave' : 'Sandbox'} refund ${refund.providerRefundId ?? '—'}`,
        ],
        ['Refunded to', `the ${paymentMethodWords(order.paymentMethod).toLowerCase()} the order was paid with`],
        // A payment that paid nothing is not the order's: the credit note names the one it gives back.
        ...(refund.providerTransactionId && refund.providerTransactionId !== order.providerTransactionId
          ? ([['Payment refunded', `transaction ${refund.providerTransactionId}`]] as [string, string][])
          : []),
        // Less than the line was paid: said in words, so the note is not read as the whole line back.
        ...(paidForLine !== undefined && refund.amount < paidForLine
          ? ([
              [
                'Partial refund',
                `${receiptNaira(refund.amount)} of the ${receiptNaira(paidForLine)} paid for this line`,
              ],
            ] as [string, string][])
          : []),
        ...(refund.reason ? ([['Reason', refund.reason]] as [string, string][]) : []),
      ],
      billedTo: await billedToOf(db, order),
      lines: [
        {
          name:
            r.lineNo === null ? `${order.title} (paid for nothing)` : `${line?.productName ?? r.product} (cancelled)`,
          quantity,
          // Only a price that times the quantity makes the amount: ₦100.00 over 3 is no ₦33.33 each.
          unitPrice: refund.amount % quantity === 0 ? refund.amount / quantity : null,
          amount: refund.amount,
        },
      ],
      total: refund.amount,
      totalLabel: 'Total refunded (NGN)',
      footer: [
        `The refund includes VAT at ${VAT_RATE_PERCENT}%. Amounts are in Nigerian naira.`,
        `Questions about this refund: ${config.SUPPORT_EMAIL}, quoting ${order.txRef}.`,
      ],
    };
    return {
      filename: creditNoteFilename(order.txRef, suffix),
      content: await renderSheet(sheet, config.SUPPORT_EMAIL),
    };
  }

  /** Admins read every receipt; a company its own paid orders. Someone else's order is "not found". */
  async function receipt(user: AuthUser, orderId: string): Promise<PdfFile> {
    if (!UUID.test(orderId)) throw notFound(messages.orderNotFound);
    const [order] = await db.select().from(orders).where(eq(orders.id, orderId));
    if (!order || (user.userType !== 'admin' && order.companyId !== user.id)) throw notFound(messages.orderNotFound);
    if (order.status !== 'paid') throw conflict(NOT_PAID);
    return receiptOf(db, order);
  }

  /** Admins read every credit note; a company those of its own refunds. */
  async function creditNote(user: AuthUser, refundId: string): Promise<PdfFile> {
    if (!UUID.test(refundId)) throw notFound(REFUND_NOT_FOUND);
    const r = await creditNoteRow(refundId);
    if (!r || (user.userType !== 'admin' && companyOfRefund(r) !== user.id)) throw notFound(REFUND_NOT_FOUND);
    if (r.refund.status !== 'completed') throw conflict(NOT_REFUNDED);
    return creditNoteOf(r);
  }

  /** The mail worker's renderer: the bytes of an attachment named in the outbox. */
  const attachment: AttachmentRenderer = async (a: MailAttachment) => {
    let file: PdfFile | null = null;
    if (a.kind === 'receipt') {
      const [order] = await db.select().from(orders).where(eq(orders.id, a.id));
      if (order?.status === 'paid') file = await receiptOf(db, order);
    } else if (a.kind === 'credit_note') {
      const r = await creditNoteRow(a.id);
      if (r?.refund.status === 'completed') file = await creditNoteOf(r);
    }
    if (!file) throw new Error(`cannot render the ${a.kind} attachment ${a.id}`);
    return { content: file.content, contentType: 'application/pdf' };
  };

  /** A company's completed refunds, newest first, for its payments list. */
  async function companyRefunds(companyId: string): Promise<CompanyRefund[]> {
    const rows = await db
      .select({
        refund: refunds,
        reference: sql<string>`coalesce(${refunds.reference}, ${orders.txRef})`,
        productName: sql<string>`coalesce(${products.productName}, ${orders.title}, ${PLAN_PAYMENT_TITLE})`,
      })
      .from(refunds)
      .leftJoin(orders, eq(orders.id, refunds.orderId))
      .leftJoin(jobs, eq(jobs.id, refunds.jobId))
      .leftJoin(products, eq(products.id, jobs.productId))
      .where(
        and(sql`coalesce(${refunds.companyId}, ${orders.companyId}) = ${companyId}`, eq(refunds.status, 'completed')),
      )
      .orderBy(desc(refunds.settledAt), desc(refunds.id))
      .limit(200);
    return rows.map(({ refund, reference, productName }) => ({
      _id: refund.id,
      orderId: refund.orderId,
      reference,
      productName,
      amount: refund.amount / 100,
      settledAt: (refund.settledAt ?? refund.updatedAt).toISOString(),
    }));
  }

  return { receipt, creditNote, attachment, companyRefunds };
}

/** The company's name, address and e-mail as a receipt prints them. */
export function companyAsBilled(u: typeof users.$inferSelect | undefined): BilledTo {
  return {
    name: u?.companyName?.trim() || u?.name || 'Company',
    address: u?.officeAddress?.trim() || null,
    email: u?.officialEmail ?? '',
  };
}

export type Receipts = ReturnType<typeof createReceipts>;
