import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBody, okMessage, publicConfigResponse, REMUNERATION_ORDER_MAX_BYTES } from '@legalmarket/contracts';
import type { FeatureOptions } from '../shared.js';
import { badRequest, notFound } from '../../platform/errors.js';
import { escapeHtml } from '../../platform/mail-templates.js';

/** Health, public settings for the web app, the development mailbox and the remuneration order PDF. */
export const platformRoutes: FastifyPluginAsyncZod<FeatureOptions> = async (app, { shared, services }) => {
  const { config, auth } = shared;
  const platform = services.platform;
  app.get(
    '/api/health',
    {
      schema: {
        tags: ['platform'],
        summary: 'Liveness and database check',
        description:
          'Answers 200 when the database answers a read, 503 when it does not (so a balancer stops sending).',
        response: { 200: okMessage, 503: errorBody },
      },
    },
    async (request, reply) => {
      try {
        await platform.checkDatabase();
      } catch (err) {
        request.log.error({ err }, 'health check: the database does not answer');
        return reply.status(503).send({ status: 'error', message: 'The database is not answering' });
      }
      return { status: 'success' as const, message: 'ok' };
    },
  );

  app.get(
    '/api/public-config',
    {
      schema: {
        tags: ['platform'],
        summary: 'Settings the web app needs (support line, payment provider, our social accounts)',
        description:
          '`socialLinks` lists only the accounts set in SOCIAL_X_URL, SOCIAL_LINKEDIN_URL, SOCIAL_INSTAGRAM_URL and SOCIAL_FACEBOOK_URL (none by default). `uploadMaxBytes` is the largest image and document POST /api/uploads takes (UPLOAD_MAX_IMAGE_BYTES, UPLOAD_MAX_DOCUMENT_BYTES); the web refuses a larger pick before sending it (decision 2311).',
        response: { 200: publicConfigResponse },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=300');
      return {
        supportPhone: config.SUPPORT_PHONE,
        supportEmail: config.SUPPORT_EMAIL,
        paymentProvider: config.PAYMENT_PROVIDER,
        uploadMaxBytes: { image: config.UPLOAD_MAX_IMAGE_BYTES, document: config.UPLOAD_MAX_DOCUMENT_BYTES },
        socialLinks: (
          [
            ['x', config.SOCIAL_X_URL],
            ['linkedin', config.SOCIAL_LINKEDIN_URL],
            ['instagram', config.SOCIAL_INSTAGRAM_URL],
            ['facebook', config.SOCIAL_FACEBOOK_URL],
          ] as const
        ).flatMap(([network, url]) => (url ? [{ network, url }] : [])),
      };
    },
  );

  const ORDER_PATH = '/api/remuneration-order';
  app.get(
    ORDER_PATH,
    {
      schema: {
        tags: ['platform'],
        summary: 'The Legal Practitioners Remuneration Order 2023 (PDF)',
        description:
          'Served from storage at REMUNERATION_ORDER_KEY; 404 until an admin uploads it (PUT, or the admin page /admin/remuneration-order). HEAD answers whether it is there without the body.',
      },
    },
    async (_request, reply) => {
      const file = await platform.remunerationOrder();
      if (!file) throw notFound('The Remuneration Order has not been uploaded yet.');
      // Replaced at the same address: a copy kept by a browser or proxy is checked before it is shown.
      return reply
        .header('content-type', 'application/pdf')
        .header('content-length', file.size)
        .header('content-disposition', 'inline; filename="legal-practitioners-remuneration-order-2023.pdf"')
        .header('content-security-policy', "default-src 'none'; frame-ancestors 'self'")
        .header('x-frame-options', 'SAMEORIGIN')
        .header('cache-control', 'public, no-cache')
        .send(file.stream);
    },
  );

  app.register(async (scoped) => {
    scoped.addContentTypeParser(
      'application/pdf',
      { parseAs: 'buffer', bodyLimit: REMUNERATION_ORDER_MAX_BYTES },
      (_r, body, done) => done(null, body),
    );
    scoped.put(
      ORDER_PATH,
      {
        schema: {
          tags: ['platform'],
          summary: 'Upload or replace the Remuneration Order PDF (admin)',
          description: [
            'Body is the PDF itself with Content-Type application/pdf (at most 20 MB); it replaces the one served by GET.',
            'Checked by its bytes as any uploaded document is (POST /api/uploads): anything but a PDF answers 400 `The file must be a PDF`, a damaged PDF or one hiding an archive 422. Each upload is written to the audit log (`remuneration_order.upload`).',
          ].join('\n\n'),
          security: [{ bearer: [] }],
          response: { 200: okMessage },
        },
        preHandler: auth.require('admin'),
      },
      async (request) => {
        const body = request.body;
        if (!Buffer.isBuffer(body) || body.length === 0) throw badRequest('The file must be a PDF');
        await platform.replaceRemunerationOrder(request.user!.id, body);
        return { status: 'success' as const, message: 'Remuneration Order uploaded' };
      },
    );
  });

  if (config.NODE_ENV !== 'production') {
    app.get(
      '/dev/mailbox',
      {
        schema: {
          tags: ['platform'],
          summary: 'Development mailbox (never in production)',
          description:
            'Mail kept in the outbox, newest first. JSON with ?format=json or Accept: application/json; `to` narrows to one address.',
          querystring: z.object({ to: z.string().max(254).optional(), format: z.enum(['json', 'html']).optional() }),
        },
      },
      async (request, reply) => {
        const mails = await platform.mailbox(request.query.to);
        const wantsJson =
          request.query.format === 'json' ||
          (request.query.format !== 'html' && (request.headers.accept ?? '').includes('application/json'));
        if (wantsJson) return { status: 'success', data: { mails } };
        const items = mails
          .map(
            (m) =>
              `<article><h2>${escapeHtml(m.subject)}</h2><p><b>To:</b> ${escapeHtml(m.to)} · ${m.createdAt.toISOString()}</p><pre>${escapeHtml(
                m.text,
              ).replace(/(https?:\/\/[^\s<]+)/g, '<a href="$1">$1</a>')}</pre>${m.attachments
                .map((a) => `<p>Attachment: <a href="${escapeHtml(a.url)}">${escapeHtml(a.filename)}</a></p>`)
                .join('')}</article>`,
          )
          .join('<hr>');
        return reply
          .type('text/html; charset=utf-8')
          .send(
            `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>Mailbox · LegalMarket</title></head><body style="font-family:system-ui;max-width:760px;margin:auto;padding:16px"><h1>Development mailbox</h1><p>Mail stays here because SMTP_URL is not set.</p>${items || '<p>No mail yet.</p>'}</body></html>`,
          );
      },
    );

    app.get(
      '/dev/mailbox/:id/attachments/:index',
      {
        schema: {
          tags: ['platform'],
          summary: 'An attachment of a mail in the development mailbox (never in production)',
          description: 'Rendered now, exactly as the mail worker renders it when it sends (receipts, credit notes).',
          params: z.object({
            id: z.string().regex(/^\d{1,15}$/, 'id must be a number'),
            index: z.string().regex(/^\d{1,3}$/, 'index must be a number'),
          }),
        },
      },
      async (request, reply) => {
        const missing = () => notFound('No such attachment');
        const a = await platform.mailAttachment(Number(request.params.id), Number(request.params.index));
        if (!a) throw missing();
        const file = await services.receipts.attachment(a).catch(() => {
          throw missing();
        });
        return reply
          .header('content-type', file.contentType)
          .header('content-disposition', `inline; filename="${a.filename.replace(/[^A-Za-z0-9._-]/g, '_')}"`)
          .header('cache-control', 'no-store')
          .send(file.content);
      },
    );
  }
};
