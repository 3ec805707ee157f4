import type { FastifySchema } from 'fastify';

export interface CollectedRoute {
  method: string;
  url: string;
  schema?: FastifySchema;
}

type FastifyModule = typeof import('fastify');

/**
 * A test-only wrapper around the Fastify factory: the instance buildApp creates gets an `onRoute` hook
 * before anything is registered, so every route (with its zod schemas) lands in `sink`. Used through
 * `vi.mock('fastify', ...)` in the security tests; buildApp itself is unchanged.
 */
export function collectingFastify(mod: FastifyModule, sink: CollectedRoute[]): FastifyModule {
  const original = mod.default;
  const wrapped = ((...args: Parameters<typeof original>) => {
    const app = original(...args);
    app.addHook('onRoute', (route) => {
      for (const method of [route.method].flat())
        sink.push({ method: String(method), url: route.url ?? route.path, schema: route.schema });
    });
    return app;
  }) as typeof original;
  return { ...mod, default: wrapped, fastify: wrapped };
}

/** `METHOD url`, unique. */
export const routeKeys = (routes: CollectedRoute[]) => [...new Set(routes.map((r) => `${r.method} ${r.url}`))].sort();
