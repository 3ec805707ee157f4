/**
 * The methods each registered path takes, so a call with another method is told which ones
 * (405 and `Allow`) rather than "Not found" for an address that exists (decision 2272).
 */
export function routeMethods() {
  const routes: Array<{ pattern: RegExp; methods: Set<string> }> = [];
  const byUrl = new Map<string, Set<string>>();
  return {
    /** For `app.addHook('onRoute', ...)`: a route's path pattern (`/api/rating/:id`) and methods. */
    add(url: string, method: string | string[]) {
      let methods = byUrl.get(url);
      if (!methods) {
        methods = new Set();
        byUrl.set(url, methods);
        const source = url
          .split(/(:[A-Za-z0-9_]+|\*)/)
          .map((part) =>
            part === '*' ? '.*' : part.startsWith(':') ? '[^/]+?' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'),
          )
          .join('');
        routes.push({ pattern: new RegExp(`^${source}/?$`), methods });
      }
      for (const m of [method].flat()) methods.add(m.toUpperCase());
    },
    /** The methods a concrete path (no query) is registered with, sorted; empty when none. */
    allowed(path: string): string[] {
      const found = new Set<string>();
      for (const r of routes) if (r.pattern.test(path)) for (const m of r.methods) found.add(m);
      return [...found].sort();
    },
  };
}
