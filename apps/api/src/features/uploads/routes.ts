import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { fileLinkResponse, messages, UPLOAD_KINDS, uploadResponse, type UploadKind } from '@legalmarket/contracts';
import type { FeatureOptions } from '../shared.js';
import { AppError, forbidden, notFound, unauthorized } from '../../platform/errors.js';

const tags = ['uploads'];
const keyParams = z.object({ key: z.string().max(64, 'key is too long') });

/** RFC 6266 filename with an ASCII fallback and the UTF-8 original. */
function attachment(name: string) {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const utf8 = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${utf8}`;
}

/** POST /api/uploads, GET /api/files/:key/link and GET /uploads/:key. */
export const uploadsRoutes: FastifyPluginAsyncZod<FeatureOptions> = async (app, { shared, services }) => {
  await app.register(multipart);
  const uploads = services.uploads;
  const { auth } = shared;

  app.post(
    '/api/uploads',
    {
      schema: {
        tags,
        summary: 'Upload an image or a document',
        description: [
          'Multipart form with one file (any field name) and `kind` = `image` or `document` (query or a field sent before the file; default `document`).',
          'Images (product and profile pictures) must be PNG, JPEG or WebP **by their bytes**; documents PDF, DOCX, DOC or such an image. HTML, SVG and anything else is refused with 415 whatever its name.',
          'Limits: UPLOAD_MAX_IMAGE_BYTES (5 MB) and UPLOAD_MAX_DOCUMENT_BYTES (10 MB); past the limit the answer is 413 at once.',
          'Answers the original file name and the URL (`/uploads/<random key>`, relative to this site). Images are public; documents are confidential: open them through GET /api/files/{key}/link.',
          'An account erased while its file was still arriving (its session was checked when the request began) gets 401 and no file is kept (decision 2230).',
        ].join('\n\n'),
        security: [{ bearer: [] }],
        querystring: z.object({ kind: z.enum(UPLOAD_KINDS, 'kind must be image or document').optional() }),
        multipartForm: z.object({
          kind: z.enum(UPLOAD_KINDS).optional().describe('Sent before the file; the query wins'),
          file: z.file().describe('The file (any field name is read)'),
        }),
        response: { 201: uploadResponse },
      },
      preHandler: auth.require(),
    },
    async (request, reply) => {
      await shared.limits.perAddress('upload', request.ip);
      const queryKind = request.query.kind;
      const form = await uploads.readForm(request, {
        kind: queryKind ?? ((fields): UploadKind => (fields.kind === 'image' ? 'image' : 'document')),
      });
      if (form.fields.kind && !(UPLOAD_KINDS as readonly string[]).includes(form.fields.kind))
        throw new AppError(400, 'kind must be image or document');
      if (!form.file) throw new AppError(400, messages.chooseFile);
      const saved = await uploads.store(form.file, request.user!.id);
      return reply.status(201).send({
        status: 'success' as const,
        message: messages.fileUploaded,
        data: {
          fileName: saved.fileName,
          url: saved.url,
          kind: saved.kind,
          contentType: saved.contentType,
          size: saved.size,
        },
      });
    },
  );

  app.get(
    '/api/files/:key/link',
    {
      schema: {
        tags,
        summary: 'A short-lived link to open an uploaded file',
        description:
          'Browsers cannot send a bearer header on a plain link, so pages ask here first and then follow the answered URL (valid 5 minutes, and only while the session that asked for it is live: a log-out or the end of the session by any other means ends it; decision 2254). Documents: only the uploader, an admin, the lawyer assigned to a job whose company file it is (uploaded by that company), the company and assigned lawyer of a job whose admin file it is (uploaded by an admin), or the company and assigned lawyer of a job whose thread or delivery carries it (attached by its uploader, or by any admin for a file an admin uploaded); others get 403. A reference in a cart line or job alone grants nothing.',
        security: [{ bearer: [] }],
        params: keyParams,
        response: { 200: fileLinkResponse },
      },
      preHandler: auth.require(),
    },
    async (request) => {
      const row = await uploads.find(request.params.key);
      if (!row) throw notFound(messages.fileNotFound);
      if (!(await uploads.canRead(request.user, row))) throw forbidden();
      return { status: 'success' as const, data: uploads.signedLink(row.key, request.user!.sessionId) };
    },
  );

  app.get(
    '/uploads/:key',
    {
      schema: {
        tags,
        summary: 'An uploaded file',
        description:
          'Images are public and cached for a year (keys never change). Documents need `?t=` from GET /api/files/{key}/link (it opens only while the session that asked for it is live and its user may still read the document: afterwards 403, decision 2254), or a bearer header of someone allowed to read them, and always download (Content-Disposition: attachment). Every file is sent with its stored type and X-Content-Type-Options: nosniff.',
        params: keyParams,
        querystring: z.object({ t: z.string().max(100).optional() }),
      },
      preHandler: auth.optional,
    },
    async (request, reply) => {
      const row = await uploads.find(request.params.key);
      if (!row) throw notFound(messages.fileNotFound);
      if (row.kind === 'document') {
        const link = request.query.t ? uploads.checkLink(row.key, request.query.t) : null;
        // A link opens for whoever follows it, but only while the session that asked for it is live and
        // its user may still read the file (decision 2254): a log-out, "sign out of all other devices",
        // a password reset, a withdrawn verification or an erasure ends the links taken before it.
        const asker = link?.state === 'ok' ? await auth.resolveSession(link.sessionId) : null;
        const opens = asker !== null && (await uploads.canRead(asker, row));
        if (!opens) {
          if (!request.user) {
            if (link?.state === 'expired' || (link?.state === 'ok' && !asker))
              throw forbidden(messages.fileLinkExpired);
            if (link?.state === 'ok') throw forbidden();
            throw unauthorized();
          }
          if (!(await uploads.canRead(request.user, row))) throw forbidden();
        }
      }
      const file = await shared.storage.get(row.key);
      if (!file) throw notFound(messages.fileNotFound);
      reply
        .header('content-type', row.contentType)
        .header('x-content-type-options', 'nosniff')
        .header('content-length', file.size);
      if (row.kind === 'document') {
        reply
          .header('content-disposition', attachment(row.originalName))
          .header('cache-control', 'private, no-store')
          .header('content-security-policy', "default-src 'none'; sandbox");
      } else {
        reply
          .header('content-disposition', 'inline')
          .header('cache-control', 'public, max-age=31536000, immutable')
          .header('cross-origin-resource-policy', 'same-site');
      }
      return reply.send(file.stream);
    },
  );
};
