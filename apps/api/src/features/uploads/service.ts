import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { and, asc, eq, inArray, like, lt, or, sql, type SQL, type SQLWrapper, type AnyColumn } from 'drizzle-orm';
import { fileTypeFromBuffer } from 'file-type';
import { messages, type UploadKind } from '@legalmarket/contracts';
import type { Config } from '../../config.js';
import type { Db, Executor } from '../../db/client.js';
import { lockLiveAccount } from '../../db/locks.js';
import { cartItems, jobEvents, jobs, orders, products, uploads, users } from '../../db/schema.js';
import type { AuthUser } from '../../platform/auth.js';
import type { Clock } from '../../platform/clock.js';
import { AppError, badRequest, forbidden } from '../../platform/errors.js';
import { readMultipart } from '../../platform/multipart.js';
import type { Storage } from '../../platform/storage.js';
import { safeEqual } from '../../platform/tokens.js';
import { inspectFile } from './inspect.js';

/** A store failing for a fault of ours that a retry will not mend (the cause is logged). */
const STORE_FAILED = 'The file could not be stored because of a fault on our side. Please contact support.';
/** Local disk causes that pass: full, an I/O error, too many open files. */
const TRANSIENT_CODES = ['ENOSPC', 'EIO', 'EMFILE', 'ENFILE', 'EAGAIN', 'EBUSY'];
/** A socket that refused, reset or timed out on the way to the store. */
const SOCKET_CODES = ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN'];
/** S3's names for "slow down" and timeouts, whatever the status they came with. */
const S3_THROTTLED = ['SlowDown', 'Throttling', 'ThrottlingException', 'RequestTimeout', 'TimeoutError'];

/**
 * Whether a storage.put failure is worth sending again: the local causes above, a socket failure, or
 * S3 answering 5xx or 429 (the SDK reports the status in `$metadata.httpStatusCode`) or throttling.
 */
export function transientStoreFailure(err: unknown): boolean {
  for (let e = err as Record<string, unknown> | undefined, i = 0; e && typeof e === 'object' && i < 5; i++) {
    const code = typeof e.code === 'string' ? e.code : undefined;
    if (code && (TRANSIENT_CODES.includes(code) || SOCKET_CODES.includes(code))) return true;
    const status = (e.$metadata as { httpStatusCode?: unknown } | undefined)?.httpStatusCode;
    if (typeof status === 'number' && (status >= 500 || status === 429)) return true;
    if (typeof e.name === 'string' && S3_THROTTLED.includes(e.name)) return true;
    e = e.cause as typeof e;
  }
  return false;
}

/** What the bytes of an accepted file turned out to be. */
interface Detected {
  ext: 'png' | 'jpg' | 'webp' | 'pdf' | 'docx' | 'doc';
  contentType: string;
}

const IMAGE_TYPES: Record<string, Detected> = {
  'image/png': { ext: 'png', contentType: 'image/png' },
  'image/jpeg': { ext: 'jpg', contentType: 'image/jpeg' },
  'image/webp': { ext: 'webp', contentType: 'image/webp' },
};

/**
 * Decides from the bytes, never from the name or the claimed type. An HTML page or an SVG (text,
 * script-capable) has no magic number file-type knows, so it is refused whatever it is called.
 */
export async function detectFile(data: Buffer, kind: UploadKind, originalName: string): Promise<Detected> {
  const detected = await detectType(data, kind, originalName);
  // The type is right; now the structure: no pixel floods, zip bombs, hidden archives or cut-off files.
  const problem = await inspectFile(data, detected.ext);
  if (problem) throw new AppError(422, problem);
  return detected;
}

async function detectType(data: Buffer, kind: UploadKind, originalName: string): Promise<Detected> {
  const found = data.length ? await fileTypeFromBuffer(data) : undefined;
  const image = found ? IMAGE_TYPES[found.mime] : undefined;
  if (kind === 'image') {
    if (!image) throw new AppError(415, messages.imageTypeRefused);
    return image;
  }
  if (image) return image;
  if (found?.mime === 'application/pdf') return { ext: 'pdf', contentType: 'application/pdf' };
  if (found?.ext === 'docx')
    return {
      ext: 'docx',
      contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    };
  // Word 97-2003 is an OLE2 compound file; so are .xls and .msi, hence the name must say .doc too.
  if (found?.ext === 'cfb' && /\.doc$/i.test(originalName)) return { ext: 'doc', contentType: 'application/msword' };
  throw new AppError(415, messages.documentTypeRefused);
}

const KEY_PATTERN = /^[a-f0-9]{32}\.(png|jpg|webp|pdf|docx|doc)$/;
const isUploadKey = (key: string) => KEY_PATTERN.test(key);
/** The site-relative URL of a stored file. */
export const uploadUrl = (key: string) => `/uploads/${key}`;
/** The key in a `/uploads/<key>` URL (relative, or absolute on any host), else null. */
export function keyOfUrl(url: string | null | undefined): string | null {
  const m = /^(?:https?:\/\/[^/]+)?\/uploads\/([A-Za-z0-9._-]+)$/.exec((url ?? '').trim());
  return m && isUploadKey(m[1]) ? m[1] : null;
}

/** How a thread names a file reference: one of our uploads by `/uploads/<key>`, a link elsewhere as sent. */
export const threadUrl = (reference: string): string => {
  const key = keyOfUrl(reference);
  return key ? uploadUrl(key) : reference;
};

/** A stored URL column that points at this key (relative, or absolute on any host). */
const refersTo = (col: AnyColumn, key: string): SQL => or(eq(col, uploadUrl(key)), like(col, `%${uploadUrl(key)}`))!;

/**
 * Whether an upload of `owner` (its key as SQL) opens through a job for someone besides its uploader
 * and admins: canRead's references as one condition. Its company's file on that company's job, an
 * admin's on any job as admin file, or one its uploader (any admin, for an admin's) attached to a
 * thread. A reference anyone else wrote (another company's job or message naming the key, an address
 * ending in it) opens nothing, so it keeps nothing at erasure either (docs/decisions/2140).
 */
export function sharedThroughJobs(key: SQLWrapper, owner: Pick<AuthUser, 'id' | 'userType'>): SQL {
  const url = sql`'/uploads/' || ${key}`;
  const names = (col: AnyColumn) => sql`(${col} = ${url} or ${col} like '%' || ${url})`;
  const files = sql`${jobs.companyId} = ${owner.id} and ${names(jobs.companyFile)}`;
  return sql`(exists (select 1 from ${jobs} where ${owner.userType === 'admin' ? names(jobs.adminFile) : files})
    or exists (select 1 from ${jobEvents} where ${owner.userType === 'admin' ? sql`${jobEvents.actorRole} = 'admin'` : sql`${jobEvents.actorId} = ${owner.id}`}
      and ${jobEvents.files} @> jsonb_build_array(jsonb_build_object('url', ${url}))))`;
}

/**
 * 400 for an attached file we do not have (swept after a week unattached, or never ours), naming it
 * by the name the client sent (else its address as sent): a form with several files says which to
 * upload again.
 */
export function attachedFileMissing(name: string | null | undefined, reference: string): AppError {
  return Object.assign(badRequest(messages.attachedFileNotFound), {
    details: { file: name?.trim() || reference.trim() },
  });
}

/**
 * Refuses a file reference a client wants stored on its cart line or job unless the client uploaded
 * that file (admins: an admin did, as they share the work): 403 for someone else's, 400 for none, as
 * a stored foreign key would travel on to the job and its lawyer. `current`, what the slot already holds, may be sent back unchanged (the admin form
 * does). Links to other sites stay allowed: they are not our documents. An upload of kind `image` is
 * refused (400): it is public and cached a year, so on a job it would open for anyone who saw its URL.
 * `name` is the file's name as the client sent it, answered as `file` with a 400 for a missing file.
 */
export async function assertAttachable(
  ex: Executor,
  user: Pick<AuthUser, 'id' | 'userType'>,
  reference: string | null | undefined,
  current: string | null = null,
  name?: string | null,
): Promise<void> {
  const ref = reference?.trim();
  if (!ref || ref === current) return;
  const key = keyOfUrl(ref);
  if (!key) {
    // A path of ours that is no upload key can only be a broken reference.
    if (ref.startsWith('/uploads/')) throw attachedFileMissing(name, ref);
    return;
  }
  const [row] = await ex
    .select({ ownerId: uploads.ownerId, ownerType: users.userType, kind: uploads.kind })
    .from(uploads)
    .leftJoin(users, eq(users.id, uploads.ownerId))
    .where(eq(uploads.key, key))
    .limit(1)
    // Held to the attaching transaction's commit: the orphan sweep skips a row being attached, and an
    // attach waits for a sweep that took the row first, then finds it gone (sweepOrphans).
    .for('share', { of: uploads });
  if (!row) throw attachedFileMissing(name, ref);
  const mine = row.ownerId === user.id || (user.userType === 'admin' && row.ownerType === 'admin');
  if (!mine) throw forbidden(messages.fileNotYours);
  if (row.kind !== 'document') throw badRequest(messages.attachDocumentOnly);
}

/**
 * The names documents were uploaded under (what a download saves them as: it ends in the extension of
 * what the bytes are), by the `/uploads/<key>` URL a job's event holds. A link elsewhere has none, and
 * neither has an upload `sender` could not attach (assertAttachable): a job's file sent back unchanged
 * may be another account's key written before issue 14, whose name is that account's, not the job's.
 */
export async function uploadedNames(
  ex: Executor,
  urls: readonly string[],
  sender: Pick<AuthUser, 'id' | 'userType'>,
): Promise<Map<string, string>> {
  const keys = urls.map(keyOfUrl).filter((k): k is string => k !== null);
  if (!keys.length) return new Map();
  const rows = await ex
    .select({ key: uploads.key, name: uploads.originalName, ownerId: uploads.ownerId, ownerType: users.userType })
    .from(uploads)
    .leftJoin(users, eq(users.id, uploads.ownerId))
    .where(inArray(uploads.key, keys));
  const attachable = (r: (typeof rows)[number]) =>
    r.ownerId === sender.id || (sender.userType === 'admin' && r.ownerType === 'admin');
  return new Map(rows.filter(attachable).map((r) => [uploadUrl(r.key), r.name]));
}

/**
 * Control characters (a line break would start a line of its own in an e-mail), quotes and angle
 * brackets, and the direction marks that show `brief‮fdp.docx` as `briefxcod.pdf`.
 */
// eslint-disable-next-line no-control-regex
const UNSHOWN_IN_NAMES = /[\u0000-\u001f\u007f-\u009f"<>\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
/** Half of a surrogate pair alone: PostgreSQL stores it as U+FFFD in text and refuses it in jsonb. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * Keeps a client's file name printable and short; it is only ever shown, never used as a path. Cut
 * at 200 characters, never inside one (an emoji is two UTF-16 units), so the name answered is the
 * name stored and can be sent back.
 */
export function cleanFileName(name: string | undefined, fallback: string): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  const printable = base.replace(LONE_SURROGATE, '\ufffd').replace(UNSHOWN_IN_NAMES, '').trim();
  const cleaned = Array.from(printable).slice(0, 200).join('').trim();
  return cleaned || fallback;
}

const EXTENSIONS: Record<Detected['ext'], string[]> = {
  png: ['png'],
  jpg: ['jpg', 'jpeg', 'jpe', 'jfif'],
  webp: ['webp'],
  pdf: ['pdf'],
  docx: ['docx'],
  doc: ['doc'],
};

/**
 * The name a file is shown and downloaded under ends in an extension of what its bytes are, so a
 * PDF called `invoice.html` is saved as `invoice.html.pdf` and never opened as a web page.
 */
function nameForType(name: string, ext: Detected['ext']): string {
  const own = /\.([A-Za-z0-9]+)$/.exec(name)?.[1]?.toLowerCase();
  return own && EXTENSIONS[ext].includes(own) ? name : `${name}.${ext}`;
}

export interface ReceivedFile {
  fieldName: string;
  originalName: string;
  data: Buffer;
  detected: Detected;
  kind: UploadKind;
}

interface ReceivedForm {
  fields: Record<string, string>;
  file: ReceivedFile | null;
}

interface ReadFormOptions {
  /** The kind of the file; a function may decide it from the fields that came before the file. */
  kind: UploadKind | ((fields: Record<string, string>) => UploadKind);
  /** Which part name carries the file (default: any). */
  fileField?: string;
}

/**
 * A document nobody attached this long after its upload is swept. The web uploads a file as soon as it
 * is picked and keeps it in a draft; a draft drops files older than six days (apps/web/src/lib/drafts.ts).
 */
export const ORPHAN_DOCUMENT_MS = 7 * 86_400_000;

/**
 * Every upload key any row names, by any address ending in `/uploads/<key>`: a picture, a product image,
 * a cart line, an order's line, a job's company or admin file, a thread's file. Wider than canRead on
 * purpose: whatever names a file keeps it, whoever wrote the name.
 */
const referencedKeys = () => {
  const keyIn = (value: SQL) => sql`substring(trim(${value}) from '/uploads/([A-Za-z0-9._-]+)$')`;
  return sql`select ${keyIn(sql`${users.profileImage}`)} as k from ${users}
    union all select ${keyIn(sql`${products.productImage}`)} from ${products}
    union all select ${keyIn(sql`${cartItems.file}`)} from ${cartItems}
    union all select ${keyIn(sql`${jobs.companyFile}`)} from ${jobs}
    union all select ${keyIn(sql`${jobs.adminFile}`)} from ${jobs}
    union all select ${keyIn(sql`f ->> 'url'`)} from ${jobEvents}, jsonb_array_elements(${jobEvents.files}) f
    union all select ${keyIn(sql`l ->> 'file'`)} from ${orders}, jsonb_array_elements(${orders.lines}) l
      where jsonb_typeof(l) = 'object'`;
};

export type UploadsService = ReturnType<typeof createUploadsService>;

export function createUploadsService(deps: {
  db: Db;
  storage: Storage;
  clock: Clock;
  config: Config;
  hashToken: (v: string) => string;
  /** Where the sweep tells of bytes it could not remove (the key, to find them). */
  logger?: Pick<FastifyBaseLogger, 'warn'>;
}) {
  const limitOf = (kind: UploadKind) =>
    kind === 'image' ? deps.config.UPLOAD_MAX_IMAGE_BYTES : deps.config.UPLOAD_MAX_DOCUMENT_BYTES;
  const LINK_TTL_MS = 5 * 60_000;

  /**
   * Reads a multipart form: its text fields (the last of a repeated one) and at most one file,
   * refusing a file whose bytes are not of the allowed types or past its kind's size limit.
   */
  async function readForm(request: FastifyRequest, opts: ReadFormOptions): Promise<ReceivedForm> {
    const lastOf = (fields: ReadonlyMap<string, string[]>) =>
      Object.fromEntries([...fields].map(([name, values]) => [name, values.at(-1)!]));
    let kind = typeof opts.kind === 'string' ? opts.kind : null;
    const form = await readMultipart(request, {
      fileLimit: (fields) => limitOf((kind = typeof opts.kind === 'string' ? opts.kind : opts.kind(lastOf(fields)))),
      ceiling: kind ? limitOf(kind) : Math.max(limitOf('image'), limitOf('document')),
      fileField: opts.fileField
        ? {
            name: opts.fileField,
            otherwise: (sentAs) => `Unexpected file field ${sentAs}; send the file as ${opts.fileField}`,
          }
        : undefined,
      fields: 20,
      fieldSize: 64 * 1024,
      unreadable: 'The upload could not be read. Please try again.',
    });
    const fields = lastOf(form.fields);
    if (!form.file || !kind) return { fields, file: null };
    const { data, fieldName } = form.file;
    if (data.length === 0) throw badRequest(messages.chooseFile);
    const originalName = cleanFileName(form.file.filename, `file.${kind === 'image' ? 'png' : 'pdf'}`);
    return {
      fields,
      file: { fieldName, originalName, data, kind, detected: await detectFile(data, kind, originalName) },
    };
  }

  /**
   * Stores the bytes under a new random key and records them; answers the original name and URL. The
   * owner's row is read FOR SHARE first: an account erased while its upload was still arriving (the
   * session was checked when the request began) gets 401 and keeps no file, and an erasure waits for
   * an upload that got there first, then finds it and erases it too.
   */
  async function store(file: ReceivedFile, ownerId: string | null, tx: Executor = deps.db) {
    const key = `${randomBytes(16).toString('hex')}.${file.detected.ext}`;
    const originalName = nameForType(file.originalName, file.detected.ext);
    try {
      await deps.storage.put(key, file.data);
    } catch (err) {
      await removeStored(key);
      // A full disk or an S3 outage: the client's file is fine and can be sent again (a 500 read as final).
      if (transientStoreFailure(err))
        throw Object.assign(
          new AppError(503, 'The file could not be stored just now. Please try again in a few minutes.', {
            'retry-after': '60',
          }),
          { cause: err },
        );
      // A wrong key, a missing bucket, a permission: sending again cannot help; the cause is logged (5xx).
      throw Object.assign(new AppError(500, STORE_FAILED), { cause: err });
    }
    const record = async (t: Executor) => {
      if (ownerId) await lockLiveAccount(t, ownerId);
      await t.insert(uploads).values({
        key,
        originalName,
        contentType: file.detected.contentType,
        size: file.data.length,
        kind: file.kind,
        ownerId,
      });
    };
    try {
      await (tx === deps.db ? deps.db.transaction(record) : record(tx));
    } catch (err) {
      await removeStored(key);
      throw err;
    }
    return {
      key,
      fileName: originalName,
      url: uploadUrl(key),
      kind: file.kind,
      contentType: file.detected.contentType,
      size: file.data.length,
    };
  }

  async function find(key: string) {
    if (!isUploadKey(key)) return null;
    const [row] = await deps.db.select().from(uploads).where(eq(uploads.key, key)).limit(1);
    return row ?? null;
  }

  /**
   * Images are public. A document is read by its uploader and by admins; anyone else reads it only
   * through a job, and only where the job and the file's uploader agree: the company's file (uploaded
   * by that job's company) by the lawyer assigned to the job; the admin's file (uploaded by an admin)
   * by the job's company and its assigned lawyer. A reference a client wrote into a cart line or a job
   * grants nothing by itself (issue 14: a company named another's key in its cart and was let in).
   */
  async function canRead(user: AuthUser | null, row: typeof uploads.$inferSelect): Promise<boolean> {
    if (row.kind === 'image') return true;
    if (!user) return false;
    if (user.userType === 'admin' || row.ownerId === user.id) return true;
    if (!row.ownerId) return false;
    const [owner] = await deps.db
      .select({ userType: users.userType })
      .from(users)
      .where(eq(users.id, row.ownerId))
      .limit(1);
    // A document its uploader attached to a job's thread or delivery opens for the job's parties. An
    // admin's upload may be attached by any admin (assertAttachable: admins share the work).
    const [inThread] = await deps.db
      .select({ one: jobEvents.id })
      .from(jobEvents)
      .innerJoin(jobs, eq(jobs.id, jobEvents.jobId))
      .where(
        and(
          owner?.userType === 'admin' ? eq(jobEvents.actorRole, 'admin') : eq(jobEvents.actorId, row.ownerId),
          sql`${jobEvents.files} @> ${JSON.stringify([{ url: uploadUrl(row.key) }])}::jsonb`,
          user.userType === 'lawyer' ? eq(jobs.assignedTo, user.id) : eq(jobs.companyId, user.id),
        ),
      )
      .limit(1);
    if (inThread) return true;
    const files: SQL[] = [];
    if (owner?.userType === 'admin') files.push(refersTo(jobs.adminFile, row.key));
    if (owner?.userType === 'company' && user.userType === 'lawyer')
      files.push(and(eq(jobs.companyId, row.ownerId), refersTo(jobs.companyFile, row.key))!);
    const reader =
      user.userType === 'lawyer'
        ? eq(jobs.assignedTo, user.id)
        : user.userType === 'company'
          ? eq(jobs.companyId, user.id)
          : undefined;
    if (!files.length || !reader) return false;
    const [job] = await deps.db
      .select({ one: jobs.id })
      .from(jobs)
      .where(and(reader, or(...files)))
      .limit(1);
    return Boolean(job);
  }

  /**
   * Forgets the picture `ownerId` has just replaced on the profile (decision 2255): its row goes in the
   * caller's transaction unless another profile or a product still shows it, and the key is answered so
   * the caller removes the bytes after commit (`removeStored`). Another's picture, a document, an
   * address elsewhere: nothing.
   */
  async function forgetReplacedPicture(tx: Executor, ownerId: string, url: string | null): Promise<string | null> {
    const key = keyOfUrl(url);
    if (!key) return null;
    const [gone] = await tx
      .delete(uploads)
      .where(
        and(
          eq(uploads.key, key),
          eq(uploads.ownerId, ownerId),
          eq(uploads.kind, 'image'),
          sql`not exists (select 1 from ${users} where ${refersTo(users.profileImage, key)})`,
          sql`not exists (select 1 from ${products} where ${refersTo(products.productImage, key)})`,
        ),
      )
      .returning({ key: uploads.key });
    return gone?.key ?? null;
  }

  /**
   * Removes stored bytes no row points at any more; a failure leaves an orphan object, never a lost row,
   * and is logged with its key, the only way left to find it.
   */
  const removeStored = (key: string) =>
    deps.storage
      .remove(key)
      .catch((err: unknown) =>
        deps.logger?.warn({ err, key }, 'stored bytes of a forgotten upload could not be removed'),
      );

  /**
   * Deletes documents uploaded more than ORPHAN_DOCUMENT_MS ago that nothing names (a form never sent, a
   * file replaced before sending, a draft left), at most `limit` a call. Safe on several instances at
   * once and against an attach: candidates are locked FOR UPDATE SKIP LOCKED (an attach holds its row
   * FOR SHARE, assertAttachable), then checked again by a statement of their own, whose snapshot sees
   * any reference committed while the lock was awaited. A row goes only once its bytes are gone: each
   * is deleted in a savepoint and its bytes removed under the lock, so a failed removal keeps the row
   * (and the file findable) for the next pass rather than leaving bytes nothing points at.
   */
  // Each candidate is checked again and its bytes removed inside the pass's transaction, which PGlite
  // runs alone: a few at a time keeps that short (and under PostgreSQL's 64 cached subtransactions).
  async function sweepOrphans(limit = 20): Promise<number> {
    const cutoff = new Date(deps.clock.now().getTime() - ORPHAN_DOCUMENT_MS);
    const old = and(eq(uploads.kind, 'document'), lt(uploads.createdAt, cutoff));
    // Most hours nothing is a week old yet: one row read, not a scan of every reference table.
    const [any] = await deps.db.select({ key: uploads.key }).from(uploads).where(old).limit(1);
    const removed = any ? await sweepCandidates(old, limit) : 0;
    // Half-written files a crash left on local disk (a full disk's are removed at once): an hour is
    // past any write still under way on another instance.
    await deps.storage.removePartial?.(new Date(deps.clock.now().getTime() - 3_600_000)).catch((err: unknown) => {
      deps.logger?.warn({ err }, 'temp upload files could not be cleaned up');
      return 0;
    });
    return removed;
  }

  async function sweepCandidates(old: SQL | undefined, limit: number): Promise<number> {
    const unnamed = sql`not exists (select 1 from (${referencedKeys()}) r where r.k = ${uploads.key})`;
    return deps.db.transaction(async (tx) => {
      const candidates = await tx
        .select({ key: uploads.key })
        .from(uploads)
        .where(and(old, unnamed))
        .orderBy(asc(uploads.createdAt))
        .limit(limit)
        .for('update', { skipLocked: true });
      let removed = 0;
      for (const { key } of candidates) {
        try {
          await tx.transaction(async (sp) => {
            const [gone] = await sp
              .delete(uploads)
              .where(and(eq(uploads.key, key), unnamed))
              .returning({ key: uploads.key });
            // Thrown, the savepoint is rolled back: the row stays for the next pass.
            if (gone) await deps.storage.remove(key);
            if (gone) removed++;
          });
        } catch (err) {
          deps.logger?.warn(
            { err, key },
            'orphan document bytes could not be removed; the row is kept for the next pass',
          );
        }
      }
      return removed;
    });
  }

  const sign = (key: string, exp: number, sessionId: string) =>
    deps.hashToken(`file-link:${key}:${exp}:${sessionId}`).slice(0, 32);

  /**
   * A short-lived link a browser can follow without a bearer header (docs/decisions/0101), bound to the
   * session that asked for it: it opens only while that session is live and its user may read the file
   * (docs/decisions/2254).
   */
  function signedLink(key: string, sessionId: string) {
    const exp = deps.clock.now().getTime() + LINK_TTL_MS;
    return {
      url: `${uploadUrl(key)}?t=${exp}.${sessionId}.${sign(key, exp, sessionId)}`,
      expiresAt: new Date(exp).toISOString(),
    };
  }

  /** 'ok' (with the session that asked for the link), 'expired' or 'bad'. */
  function checkLink(
    key: string,
    token: string | undefined,
  ): { state: 'ok'; sessionId: string } | { state: 'expired' | 'bad' } {
    const m = /^(\d{13})\.([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.([A-Za-z0-9_-]{32})$/i.exec(
      token ?? '',
    );
    if (!m) return { state: 'bad' };
    const exp = Number(m[1]);
    if (!safeEqual(m[3], sign(key, exp, m[2]))) return { state: 'bad' };
    return exp < deps.clock.now().getTime() ? { state: 'expired' } : { state: 'ok', sessionId: m[2] };
  }

  return {
    readForm,
    store,
    find,
    canRead,
    signedLink,
    checkLink,
    limitOf,
    forgetReplacedPicture,
    removeStored,
    sweepOrphans,
  };
}
