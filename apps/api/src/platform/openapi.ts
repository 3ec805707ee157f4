import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
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
  // A JSON body that is empty or left out is read as `{}` (decisions 2110, 2289): where `{}` is a whole
  // request, the body is optional, and @fastify/swagger, which always writes `required: true`, is told so.
  const body = routeSchema.body as z.ZodType | undefined;
  if (!multipartForm && body && typeof body.safeParse === 'function' && body.safeParse({}).success)
    schema[OPTIONAL_BODY] = true;
  const use = sessionUse(input.route);
  if (!schema.security && use) schema.security = use === 'required' ? BEARER : [...BEARER, {}];
  return out;
}

const OPTIONAL_BODY = 'x-optional-body';

/**
 * The document's last pass (swagger's `transformObject`): an operation whose body may be left out
 * declares `requestBody.required: false`, and one whose body schema takes anything (a "none" payload
 * row such as `PUT /job-api/completejob/{id}`, which only tolerates a stray body) declares no body.
 */
export function openApiDocument(input: DocumentInput) {
  if (!('openapiObject' in input)) return input.swaggerObject;
  const doc = input.openapiObject;
  for (const operations of Object.values(doc.paths ?? {}))
    for (const op of Object.values(operations ?? {}) as Array<Record<string, unknown>>) {
      if (!op || typeof op !== 'object' || !(OPTIONAL_BODY in op)) continue;
      delete op[OPTIONAL_BODY];
      const requestBody = op.requestBody as { required?: boolean; content?: Record<string, { schema?: object }> };
      if (!requestBody) continue;
      const media = Object.values(requestBody.content ?? {});
      if (media.length > 0 && media.every((m) => !m.schema || Object.keys(m.schema).length === 0))
        delete op.requestBody;
      else requestBody.required = false;
    }
  return doc;
}
type DocumentInput = Parameters<NonNullable<FastifyDynamicSwaggerOptions['transformObject']>>[0];

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
