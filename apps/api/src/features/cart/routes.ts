import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  addToCartBody,
  cartChangeResponse,
  cartResponse,
  IDEMPOTENCY_KEY_HEADER,
  idempotencyKey,
  messages,
  moveReservationsInput,
  okMessage,
} from '@legalmarket/contracts';
import { badRequest } from '../../platform/errors.js';
import type { FeatureOptions } from '../shared.js';
import { CART_READS } from './service.js';

const tags = ['cart'];

/** The company's server cart (spec: company document, sections 4 and 7). */
export const cartRoutes: FastifyPluginAsyncZod<FeatureOptions> = async (app, { shared, services }) => {
  const cart = services.cart;
  const companyOnly = shared.auth.require('company');

  app.post(
    '/api/cart',
    {
      schema: {
        tags,
        summary: 'Add a product to the cart',
        description:
          'Company only. `quantity` 1-10 (default 1); optional `detail`, `file` (a URL answered by POST /api/uploads to this company: a file someone else uploaded answers 403, an unknown one 400) and `fileName`; an optional field sent empty or null counts as not sent (decisions 2110, 2210). Adding a product that is already in the cart adds to that line (decision 1800): the quantities add up, the new `detail` follows the old one after a blank line, a `file` joins a line that had none; `notes` says so in words. 409 when the line would pass 10, when the line already has another document, or when its detail would pass 10,000 characters: nothing is changed then. An optional `Idempotency-Key` header (a uuid the client makes for one addition; another value answers 400) makes it add once: sent again with the same key and product (a double tap, a retry after a lost answer) it changes nothing and answers 201 with the cart as it is, `[{ products: [], bill: 0 }]` if that is empty (decision 2240). Prices always come from the catalogue; any price the client sends is ignored. Answers the whole cart.',
        body: addToCartBody,
        response: { 201: cartChangeResponse },
      },
      preHandler: companyOnly,
    },
    async (request, reply) => {
      const key = idempotencyKey.safeParse(request.headers[IDEMPOTENCY_KEY_HEADER]);
      if (!key.success) throw badRequest(key.error.issues[0].message);
      const { data, notes } = await cart.add(request.user!.id, request.body, key.data);
      return reply.status(201).send({ status: 'success', message: messages.addedToCart, data, notes });
    },
  );

  app.post(
    '/api/cart/reservations',
    {
      schema: {
        tags,
        summary: "Move a visitor's reservations into the cart",
        description:
          'Company only. The browser sends the lines a visitor reserved (`items`, 1-50, each an add-to-cart body with the `reservationId` the browser gave it) after a log-in; each is added as POST /api/cart adds (decision 1800), once: a reservation id this company already moved is skipped, so a retry or a second tab changes nothing. Never refuses a merge: a line past 10 is capped at 10, a second document stays out, a product no longer in the catalogue is skipped; `notes` names each. Answers the whole cart (404-free: an empty cart is `[{ products: [], bill: 0 }]`).',
        body: moveReservationsInput,
        response: { 200: cartChangeResponse },
      },
      preHandler: companyOnly,
    },
    async (request) => {
      const { data, notes } = await cart.moveReservations(request.user!.id, request.body);
      return { status: 'success' as const, message: messages.reservationsMoved, data, notes };
    },
  );

  app.get(
    '/api/cart',
    {
      schema: {
        tags,
        summary: "The company's cart",
        description:
          'Company only. Answers `[{ products: [{ productId, quantity, detail, file, fileName, price, productName, productImage }], bill }]` with prices and bill in naira read from the catalogue. An empty cart answers 404 `Your cart is empty` (the spec treats an empty cart as not found). Products an admin removed from the catalogue drop out of the cart. Cached per company until the next write to a cart or a product, on any instance (decision 1500).',
        response: { 200: cartResponse },
      },
      preHandler: companyOnly,
    },
    (request, reply) =>
      shared.responses.send(
        request,
        reply,
        CART_READS,
        async () => ({ value: await cart.view(request.user!.id) }),
        cartResponse,
      ),
  );

  app.delete(
    '/api/cart/:productId',
    {
      schema: {
        tags,
        summary: 'Remove a product from the cart',
        description: 'Company only; idempotent (removing a product that is not in the cart answers the same).',
        params: z.object({ productId: z.uuid('productId must be a valid product id') }),
        response: { 200: okMessage },
      },
      preHandler: companyOnly,
    },
    async (request) => {
      await cart.remove(request.user!.id, request.params.productId);
      return { status: 'success' as const, message: messages.productRemovedFromCart };
    },
  );

  app.post(
    '/api/clear-cart',
    {
      schema: {
        tags,
        summary: 'Empty the cart',
        description: 'Company only; no payload; idempotent.',
        response: { 200: okMessage },
      },
      preHandler: companyOnly,
    },
    async (request) => {
      await cart.clear(request.user!.id);
      return { status: 'success' as const, message: messages.cartCleared };
    },
  );
};
