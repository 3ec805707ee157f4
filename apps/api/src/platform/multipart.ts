import type { FastifyRequest } from 'fastify';
import { hasUnsafeCharacter, unsafeCharacterMessage } from '@legalmarket/contracts';
import { fileTooLargeMessage } from '@legalmarket/contracts/constants';
import { AppError, badRequest } from './errors.js';

/**
 * A form the client broke: Fastify's 4xx, or the multipart parser giving up on a cut-off body, a wrong
 * boundary or a malformed part header (busboy throws those without a status code, which answered 500).
 */
function malformedForm(err: unknown): boolean {
  const e = err as { statusCode?: number; message?: unknown; stack?: unknown };
  if (e?.statusCode && e.statusCode < 500) return true;
  return (
    typeof e?.message === 'string' &&
    (/multipart|boundary|part header|unexpected end of/i.test(e.message) || /[\\/]busboy[\\/]/.test(String(e.stack)))
  );
}

/** What a form may add to its file's size in text fields and part headers before Content-Length is refused. */
const FORM_OVERHEAD = 256 * 1024;
const tooLarge = (limit: number) => new AppError(413, fileTooLargeMessage(limit));

interface MultipartFile {
  fieldName: string;
  /** The name the client sent, untrusted and uncleaned. */
  filename: string;
  /** Empty when an empty file was sent; the caller decides whether that is an error. */
  data: Buffer;
}

interface MultipartForm {
  /** Every text field in order of arrival; a repeated field (or `name[]`) keeps each value. */
  fields: Map<string, string[]>;
  file: MultipartFile | null;
}

interface MultipartOptions {
  /** The largest file, in bytes: a function decides it from the fields sent before the file. */
  fileLimit: number | ((fieldsSoFar: ReadonlyMap<string, string[]>) => number);
  /** The largest `fileLimit` can answer, when it is a function: the parser's and Content-Length's bound. */
  ceiling?: number;
  /** The one part name that may carry the file, and the 400 text when the file came under `sentAs`. */
  fileField?: { name: string; otherwise: (sentAs: string) => string };
  /** At most this many text fields, each at most `fieldSize` bytes. */
  fields: number;
  fieldSize: number;
  /** The 400 text for a body the parser cannot read. */
  unreadable: string;
}

/**
 * The one multipart reader: text fields and at most one file, answering 413 as soon as the size limit
 * is passed (by Content-Length or while streaming; the rest is not read) and 400 for a broken form.
 */
export async function readMultipart(request: FastifyRequest, opts: MultipartOptions): Promise<MultipartForm> {
  if (!request.isMultipart()) throw new AppError(415, 'Send the form as multipart/form-data');
  const ceiling = typeof opts.fileLimit === 'number' ? opts.fileLimit : opts.ceiling!;
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > ceiling + FORM_OVERHEAD) throw tooLarge(ceiling);

  const fields = new Map<string, string[]>();
  let file: MultipartFile | null = null;
  const parts = request.parts({
    limits: { fileSize: ceiling + 1, files: 1, fields: opts.fields, fieldSize: opts.fieldSize, parts: opts.fields + 5 },
  });
  try {
    for await (const part of parts) {
      if (part.type === 'field') {
        const name = part.fieldname.replace(/\[\]$/, '');
        if (typeof part.value !== 'string') continue;
        if (hasUnsafeCharacter(part.value) || hasUnsafeCharacter(name)) throw badRequest(unsafeCharacterMessage(name));
        fields.set(name, [...(fields.get(name) ?? []), part.value]);
        continue;
      }
      if (opts.fileField && part.fieldname !== opts.fileField.name) {
        part.file.resume();
        throw badRequest(opts.fileField.otherwise(part.fieldname));
      }
      const limit = typeof opts.fileLimit === 'number' ? opts.fileLimit : opts.fileLimit(fields);
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of part.file as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > limit) {
          part.file.destroy();
          throw tooLarge(limit);
        }
        chunks.push(chunk);
      }
      if (part.file.truncated) throw tooLarge(limit);
      file = { fieldName: part.fieldname, filename: part.filename, data: Buffer.concat(chunks) };
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    const e = err as { code?: string };
    if (e.code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge(ceiling);
    if (e.code === 'FST_FILES_LIMIT') throw badRequest('Send one file at a time');
    if (e.code === 'FST_PARTS_LIMIT' || e.code === 'FST_FIELDS_LIMIT') throw badRequest('The form has too many fields');
    if (malformedForm(err)) throw badRequest(opts.unreadable);
    throw err;
  }
  return { fields, file };
}
