import multipart from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  EXPERTISE,
  hasUnsafeCharacter,
  idParam,
  messages,
  okMessage,
  productResponse,
  productSavedResponse,
  productsQuery,
  productsResponse,
  unsafeCharacterMessage,
} from '@legalmarket/contracts';
import type { FeatureOptions } from '../shared.js';
import { AppError, badRequest } from '../../platform/errors.js';
import { sendPrepared } from '../../platform/response-cache.js';
import type { CachedResponse } from './service.js';

const tags = ['catalogue'];
const multipartBody =
  'Multipart form: `productName` (text), `productPrice` (whole naira, digits only), `productDescription` (text) and `productImage` (a PNG, JPEG or WebP file, checked by its bytes; at most UPLOAD_MAX_IMAGE_BYTES). Optional: `area` (one of the areas of law), `whatYouGet` (one line, at most 140 characters), `deliveryDays` (1 to 90 working days), `included`, `youProvide`, `notIncluded` (one item per line); on an update a field left out keeps its value and an empty one clears it.';

/** At most as many fields, each at most as long, as the multipart form takes (uploads' readForm). */
const JSON_FORM_FIELDS = 40;
const JSON_FIELD_SIZE = 64 * 1024;

/**
 * PUT /api/update/{id} sent with JSON headers, as the spec's client sends every call: axios turns the
 * FormData into JSON, so the text fields arrive as an object and a chosen File as `{}` (decision 2325).
 * Read as the form's text fields without a new picture; `null` is not sent, numbers are their text and a
 * list (the product's `included`, as read) is one item per line. A File made `{}` cannot carry the
 * picture the admin chose, so it is refused rather than dropped.
 */
function jsonProductFields(body: unknown): Record<string, string> {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw badRequest('Send the product as an object of fields');
  const entries = Object.entries(body);
  if (entries.length > JSON_FORM_FIELDS) throw badRequest('The form has too many fields');
  const fields: Record<string, string> = {};
  for (const [name, value] of entries) {
    if (value === null || value === undefined) continue;
    if (name === 'productImage') {
      if (typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0)
        throw new AppError(
          415,
          'A new product image cannot be sent as JSON: send the form as multipart/form-data with the file as productImage',
        );
      continue;
    }
    const values: unknown[] = Array.isArray(value) ? value : [value];
    const texts = values.map((v) => {
      if (!['string', 'number', 'boolean'].includes(typeof v)) throw badRequest(`${name} must be text`);
      const text = String(v);
      if (hasUnsafeCharacter(text) || hasUnsafeCharacter(name)) throw badRequest(unsafeCharacterMessage(name));
      return text;
    });
    const text = texts.join('\n');
    if (text.length > JSON_FIELD_SIZE) throw badRequest(`${name} is too long`);
    fields[name] = text;
  }
  return fields;
}

const sentAsJson = (request: FastifyRequest) =>
  !request.isMultipart() && /^application\/json\b/i.test(request.headers['content-type'] ?? '');

/** The product form as the OpenAPI document shows it (the route reads it itself; see `multipartBody`). */
const productFormFields = {
  productName: z.string(),
  productPrice: z.string().regex(/^\d+$/).describe('Whole naira, digits only'),
  productDescription: z.string(),
  productImage: z.file().describe('A PNG, JPEG or WebP image'),
  area: z
    .union([z.enum(EXPERTISE), z.literal('')])
    .optional()
    .describe('Empty on an update clears the area'),
  whatYouGet: z.string().optional(),
  deliveryDays: z.string().regex(/^\d*$/).optional().describe('1 to 90 working days'),
  included: z.string().optional(),
  youProvide: z.string().optional(),
  notIncluded: z.string().optional(),
};
const productCreateForm = z.object(productFormFields);
const productUpdateForm = z.object({
  ...productFormFields,
  productImage: productFormFields.productImage.optional().describe('A new picture; left out, the picture stays'),
});

/**
 * Sends a cached catalogue answer (JSON text made once per catalogue change), or 304 when the client
 * already holds it. The ETag is a hash of the text, so any change to the catalogue changes it.
 */
function sendCached(request: FastifyRequest, reply: FastifyReply, answer: CachedResponse) {
  reply.header('etag', answer.etag).header('cache-control', 'no-cache');
  const sent = request.headers['if-none-match'];
  if (sent && sent.split(',').some((t) => t.trim().replace(/^W\//, '') === answer.etag)) {
    return reply.header('vary', 'accept-encoding').status(304).send();
  }
  // Bytes are sent as they are: the answer schema was applied when they were made; the compressed
  // copies are made once per catalogue change (the compression plugin is off for these routes).
  return sendPrepared(request, reply, answer);
}

/** GET /product-api/products, GET /product-api/product/{id}; admin POST /api/create, PUT /api/update/{id}, DELETE /api/delete/{id}. */
export const catalogueRoutes: FastifyPluginAsyncZod<FeatureOptions> = async (app, { shared, services }) => {
  await app.register(multipart);
  const { uploads, catalogue } = services;
  const { auth } = shared;

  app.get(
    '/product-api/products',
    {
      schema: {
        tags,
        summary: 'The catalogue',
        description:
          "Products on sale, newest first, in `products` at the top of the body (as the spec's client reads it); deleted products are left out. Prices in naira. Optional filters, applied together: `q` (every word found in the name, what you get, description or area), `area` (one of the areas of law), `min` and `max` (price bounds in whole naira, both included); a bad value answers 400 naming the parameter, no match answers an empty list. Each product carries its area, what you get, delivery time in working days, the product page's lists and its rating (average and count). Sends an ETag; with If-None-Match the answer is 304 until the catalogue changes. Answered from memory, compressed once per change (br or gzip as accepted); a change on any instance is seen on the next request everywhere.",
        querystring: productsQuery,
        response: { 200: productsResponse, 304: z.null().describe('Not modified') },
      },
      compress: false,
    },
    async (request, reply) => sendCached(request, reply, await catalogue.listResponse(request.query)),
  );

  app.get(
    '/product-api/product/:id',
    {
      schema: {
        tags,
        summary: 'One product',
        description:
          'The product itself (`_id`, `productName`, `productPrice`, ... at the top of the body); 404 when it does not exist or was deleted. ETag and 304 as for the list.',
        params: idParam,
        response: { 200: productResponse, 304: z.null().describe('Not modified') },
      },
      compress: false,
    },
    async (request, reply) => sendCached(request, reply, await catalogue.productResponse(request.params.id)),
  );

  app.post(
    '/api/create',
    {
      schema: {
        tags,
        summary: 'Create a product (admin)',
        description: `${multipartBody} All four are required. Answers the created product as \`product\` (and, as before, \`data.product\`). Recorded in the audit log.`,
        security: [{ bearer: [] }],
        multipartForm: productCreateForm,
        response: { 201: productSavedResponse },
      },
      preHandler: auth.require('admin'),
    },
    async (request, reply) => {
      const form = await uploads.readForm(request, { kind: 'image', fileField: 'productImage' });
      const product = await catalogue.create(request.user!.id, form.fields, form.file);
      return reply
        .status(201)
        .send({ status: 'success' as const, message: messages.newProductCreated, product, data: { product } });
    },
  );

  app.put(
    '/api/update/:id',
    {
      schema: {
        tags,
        summary: 'Update a product (admin)',
        description: `${multipartBody} Name, price and description are required; without productImage the picture stays. A JSON body (\`Content-Type: application/json\`, as a client sending JSON headers on every call sends the form) is read as the same text fields without a new picture: \`null\` is not sent, a number is its text, a list is one item per line, and a \`productImage\` that is text (the saved URL) keeps the picture, while \`{}\` (a chosen file turned into JSON) answers 415 and saves nothing (decision 2325). Answers the saved product as \`product\` (and \`data.product\`). Recorded in the audit log.`,
        security: [{ bearer: [] }],
        params: idParam,
        multipartForm: productUpdateForm,
        response: { 200: productSavedResponse },
      },
      preHandler: auth.require('admin'),
    },
    async (request) => {
      const form = sentAsJson(request)
        ? { fields: jsonProductFields(request.body), file: null }
        : await uploads.readForm(request, { kind: 'image', fileField: 'productImage' });
      const product = await catalogue.update(request.user!.id, request.params.id, form.fields, form.file);
      return { status: 'success' as const, message: messages.productUpdated, product, data: { product } };
    },
  );

  app.delete(
    '/api/delete/:id',
    {
      schema: {
        tags,
        summary: 'Delete a product (admin)',
        description:
          'Removes the product from the catalogue. Jobs, orders and reviews that refer to it keep it (soft delete). Deleting again answers the same. Recorded in the audit log.',
        security: [{ bearer: [] }],
        params: idParam,
        response: { 200: okMessage },
      },
      preHandler: auth.require('admin'),
    },
    async (request) => {
      await catalogue.remove(request.user!.id, request.params.id);
      return { status: 'success' as const, message: messages.productDeleted };
    },
  );
};
