import { useSyncExternalStore } from 'react';

const subscribe = () => () => {};

/**
 * False in the server's markup and while React takes it over, true once the page's code runs. A form
 * on a server-rendered page stays disabled until then: a choice made before hydration would be reset
 * by it without a word.
 */
export function useHydrated() {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
