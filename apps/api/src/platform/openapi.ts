import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { sessionUse } from './auth.js';

type TransformInput = Parameters<typeof jsonSchemaTransform>[0];
type Transformed = ReturnType<typeof jsonSchemaTransform>;

/** The bearer scheme named in the document's components. */
export const BEARER = [{ bearer: [] }];

/**
 * The OpenAPI transform: the zod schemas as JSON schemas, then what a generated client needs and the
 * route's options say rather than its schema. A route guarded by `auth.require` names the bearer scheme
 * (a client generated from the document sends the token only where the operation asks for it); one that
 * reads a token when sent (`auth.optional`, the logout) names it as optional.
 */
export function openApiTransform(input: TransformInput): Transformed {
  const out = jsonSchemaTransform(input);
  const schema = out.schema as Record<string, unknown> | undefined;
  if (!schema || schema.hide) return out;
  const use = sessionUse(input.route);
  if (!schema.security && use) schema.security = use === 'required' ? BEARER : [...BEARER, {}];
  return out;
}
