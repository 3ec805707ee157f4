import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { loadOnce } from '@/lib/load-once';

export type Module = { default: ComponentType };
export type Loader = () => Promise<Module>;
/** A lazy page that can be loaded before it is rendered (see app/router's preloadPage). */
export type Page<M extends Module = Module> = LazyExoticComponent<ComponentType> & { load: () => Promise<M> };

/**
 * A lazy page. Once its module is loaded it renders in the same pass: React.lazy takes any thenable,
 * and one that answers at once spares the Loading fallback, and the up to 300 ms for which React holds
 * back the content that replaces a fallback.
 */
export function page<M extends Module>(loader: () => Promise<M>): Page<M> {
  let loaded: M | undefined;
  // Set before the load answers, so a page rendered after `await load()` takes the shortcut below.
  const load = loadOnce(() => loader().then((m) => (loaded = m)));
  const component = lazy(() =>
    loaded ? ({ then: (done: (m: M) => void) => done(loaded!) } as unknown as Promise<M>) : load(),
  );
  return Object.assign(component, { load });
}
