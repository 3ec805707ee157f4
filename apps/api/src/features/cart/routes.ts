import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { addToCartInput, cartResponse, cartLine, messages, okMessage } from '@legalmarket/contracts';
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
          'Company only. `quantity` 1-10 (default 1); optional `detail`, `file` (a URL answered by POST /api/uploads to this company: a file someone else uploaded answers 403, an unknown one 400) and `fileName`. Adding a product that is already in the cart replaces that line. Prices always come from the catalogue; any price the client sends is ignored. Answers the whole cart.',
        body: addToCartInput,
        response: {
          201: okMessage.extend({ data: z.array(z.object({ products: z.array(cartLine), bill: z.number() })) }),
        },
      },
      preHandler: companyOnly,
    },
    async (request, reply) => {
      const data = await cart.add(request.user!.id, request.body);
      return reply.status(201).send({ status: 'success', message: messages.addedToCart, data });
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
