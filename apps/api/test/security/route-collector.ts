import type { FastifyInstance, FastifySchema } from 'fastify';

export interface CollectedRoute {
  method: string;
  url: string;
  schema?: FastifySchema;
}

/**
 * A test-only wrapper around the Fastify factory: the instance buildApp creates gets an `onRoute` hook
 * before anything is registered, so every route (with its zod schemas) lands in `sink`. Used through
 * `vi.mock('fastify', ...)` in the security tests; buildApp itself is unchanged.
 */
export function collectingFastify<M extends { default: unknown }>(mod: M, sink: CollectedRoute[]): M {
  const original = mod.default as (...args: unknown[]) => FastifyInstance;
  const wrapped = (...args: unknown[]) => {
    const app = original(...args);
    app.addHook('onRoute', (route) => {
      for (const method of [route.method].flat())
        sink.push({ method: String(method), url: route.url ?? route.path, schema: route.schema });
    });
    return app;
  };
  return { ...mod, default: wrapped, fastify: wrapped };
}

/** `METHOD url`, unique. */
export const routeKeys = (routes: CollectedRoute[]) => [...new Set(routes.map((r) => `${r.method} ${r.url}`))].sort();
