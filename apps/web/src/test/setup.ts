import '@testing-library/jest-dom/vitest';
import { toBeDisabled, toBeEnabled } from '@testing-library/jest-dom/matchers';
import { afterEach, beforeEach, expect, vi } from 'vitest';
import { cleanup } from '@testing-library/react';

// Disabled as a person meets it, as Playwright's toBeDisabled reads it: the shared Button is aria-disabled
// (it keeps focus), which jest-dom's matchers, reading the native attribute alone, would call enabled.
// Buttons only: a field or link marked aria-disabled still takes input, and must not pass as disabled.
const ariaDisabled = (el: unknown) => el instanceof HTMLButtonElement && el.getAttribute('aria-disabled') === 'true';
expect.extend({
  toBeDisabled(this: ThisParameterType<typeof toBeDisabled>, el: HTMLElement) {
    if (!ariaDisabled(el)) return toBeDisabled.call(this, el);
    return { pass: true, message: () => `expected ${el.outerHTML.slice(0, 120)} not to be aria-disabled` };
  },
  toBeEnabled(this: ThisParameterType<typeof toBeEnabled>, el: HTMLElement) {
    if (!ariaDisabled(el)) return toBeEnabled.call(this, el);
    return { pass: false, message: () => `expected ${el.outerHTML.slice(0, 120)} to be enabled: it is aria-disabled` };
  },
});

// Web unit tests fail on console.error and on any request nobody expected.
beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    throw new Error(`console.error: ${args.map(String).join(' ')}`);
  });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      throw new Error(`unexpected request: ${String(input)}`);
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  localStorage.clear();
  sessionStorage.clear();
});
