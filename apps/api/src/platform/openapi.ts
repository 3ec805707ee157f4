import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { errorBody } from '@legalmarket/contracts';
import { sessionUse } from './auth.js';

declare module 'fastify' {
  interface FastifySchema {
    /**
     * The multipart form a route reads itself (platform/multipart.ts), for the OpenAPI document only:
     * Fastify never validates it, and a file is `z.file()`.
     */
    multipartForm?: z.ZodType;
  }
}

type TransformInput = Parameters<typeof jsonSchemaTransform>[0];
type Transformed = ReturnType<typeof jsonSchemaTransform>;

/** Every 4xx and 5xx answer of platform/errors.ts; a route's own error statuses stay as it declares them. */
const errorResponse = errorBody.describe(
  'An error (any 4xx or 5xx): `message` is the text to show; a refused request body, query or path also lists each field in `issues`.',
);

/** The bearer scheme named in the document's components. */
export const BEARER = [{ bearer: [] }];

/**
 * The OpenAPI transform: the zod schemas as JSON schemas, then what a generated client needs and the
 * route's options say rather than its schema. A route guarded by `auth.require` names the bearer scheme
 * (a client generated from the document sends the token only where the operation asks for it); one that
 * reads a token when sent (`auth.optional`, the logout) names it as optional. Every JSON route declares
 * the error shape as its `default` answer, so a generated client can read a refusal's message. A route
 * that reads a multipart form declares it as its request body.
 */
export function openApiTransform(input: TransformInput): Transformed {
  const { multipartForm, ...routeSchema } = input.schema ?? {};
  const response = routeSchema.response as Record<string, unknown> | undefined;
  const out = jsonSchemaTransform({
    ...input,
    schema: input.schema && {
      ...routeSchema,
      ...(response && !('default' in response) ? { response: { ...response, default: errorResponse } } : {}),
      ...(multipartForm ? { body: multipartForm, consumes: ['multipart/form-data'] } : {}),
    },
  });
  const schema = out.schema as Record<string, unknown> | undefined;
  if (!schema || schema.hide) return out;
  allowNullInNullableEnums(schema);
  const use = sessionUse(input.route);
  if (!schema.security && use) schema.security = use === 'required' ? BEARER : [...BEARER, {}];
  return out;
}

/**
 * OpenAPI 3.0 reads `nullable: true` as adding null to the type but not to an `enum` (3.0.3's
 * clarification): a nullable enum must list null itself, or a validating client refuses the null that
 * `z.enum(...).nullable()` answers (a product without an area of law).
 */
function allowNullInNullableEnums(node: unknown) {
  if (Array.isArray(node)) {
    for (const item of node) allowNullInNullableEnums(item);
    return;
  }
  if (!node || typeof node !== 'object') return;
  const schema = node as Record<string, unknown>;
  if (schema.nullable === true && Array.isArray(schema.enum) && !schema.enum.includes(null))
    schema.enum = [...(schema.enum as unknown[]), null];
  for (const value of Object.values(schema)) allowNullInNullableEnums(value);
}
