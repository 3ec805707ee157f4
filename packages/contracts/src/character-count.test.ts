import { afterEach, describe, expect, it, vi } from 'vitest';

/** job-lifecycle.js loaded afresh, so its segmenter is made (or not) under the Intl given now. */
async function freshLifecycle() {
  vi.resetModules();
  return import('./job-lifecycle.js');
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('characterCount', () => {
  it('loads and counts where Intl.Segmenter is missing (Firefox 93-124), by code points', async () => {
    vi.stubGlobal('Intl', {
      ...Object.fromEntries(Object.getOwnPropertyNames(Intl).map((k) => [k, Reflect.get(Intl, k)])),
      Segmenter: undefined,
    });
    expect(typeof Intl.Segmenter).toBe('undefined');
    const { characterCount, noteTooLong } = await freshLifecycle();
    expect(characterCount('Hello')).toBe(5);
    expect(characterCount('😀 ok')).toBe(4);
    // e, dot below, acute typed apart: three code points, where a segmenter counts one.
    expect(characterCount('e\u0323\u0301')).toBe(3);
    expect(noteTooLong('a'.repeat(5001))).toBe(true);
  });

  it('counts graphemes where Intl.Segmenter is there', async () => {
    const { characterCount } = await freshLifecycle();
    expect(characterCount('e\u0323\u0301')).toBe(1);
    expect(characterCount('🇳🇬 Lagos')).toBe(7);
  });

  it('counts ASCII text by its length, CR LF as one character as a segmenter does', async () => {
    const { characterCount } = await freshLifecycle();
    expect(characterCount('')).toBe(0);
    expect(characterCount('Line one\r\nLine two\n')).toBe(18);
    const segments = [...new Intl.Segmenter('en', { granularity: 'grapheme' }).segment('a\r\nb\r\r\n\n')].length;
    expect(characterCount('a\r\nb\r\r\n\n')).toBe(segments);
  });
});
