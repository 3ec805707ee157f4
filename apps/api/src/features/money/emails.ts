import type { Mail } from '../../platform/mailer.js';
import { adminMail } from '../admin/emails.js';
import { creditNoteFilename, creditNoteNumber, receiptFilename, receiptNaira } from './receipts.js';

/** The payment confirmation, written with the order's move to paid; the receipt PDF rides along. */
export function paymentReceivedMail(
  to: string,
  name: string,
  order: { id: string; reference: string; amount: number; items: number },
  url: string,
): Mail {
  return {
    ...adminMail(
      to,
      `Payment received: ${receiptNaira(order.amount)} (${order.reference})`,
      [
        `Hello ${name},`,
        `Thank you: we have received your payment of ${receiptNaira(order.amount)} for ${order.items} ${order.items === 1 ? 'service' : 'services'} (payment ${order.reference}). We are finding a lawyer for each now.`,
        `Your receipt is attached. You can download it again from your payments list.`,
      ],
      { label: 'See your payments', url },
    ),
    attachments: [{ kind: 'receipt', id: order.id, filename: receiptFilename(order.reference) }],
  };
}

/** The credit note of a completed refund, attached to the refund's mail (money/refunds.ts settle). */
export const creditNoteAttachment = (refundId: string, reference: string, lineNo: number) => ({
  kind: 'credit_note',
  id: refundId,
  filename: creditNoteFilename(reference, lineNo),
});

export const creditNoteLine = (reference: string, lineNo: number) =>
  `Your credit note ${creditNoteNumber(reference, lineNo)} is attached.`;
