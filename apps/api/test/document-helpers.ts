import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { extractText, getDocumentProxy } from 'unpdf';

/** The text a PDF reader shows, through pdf.js (unpdf): proof the file opens and what it says. */
export async function pdfText(bytes: Buffer | Uint8Array) {
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  const { text } = await extractText(pdf, { mergePages: true });
  return text.replace(/\s+/g, ' ');
}

/** A real SMTP server: what arrives is what nodemailer wrote on the wire, attachments included. */
export function startSmtp() {
  const received: { to: string[]; raw: string }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString() });
        cb();
      });
    },
  });
  return new Promise<{ port: number; received: typeof received; close: () => Promise<void> }>((resolve) => {
    server.listen(0, '127.0.0.1', () =>
      resolve({
        port: (server.server.address() as AddressInfo).port,
        received,
        close: () => new Promise((r) => server.close(() => r())),
      }),
    );
  });
}
