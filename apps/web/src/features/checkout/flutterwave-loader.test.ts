import { afterEach, describe, expect, it } from 'vitest';
import { loadFlutterwave } from './flutterwave-loader';

const SRC = 'https://checkout.flutterwave.com/v3.js';
const script = () => document.head.querySelector<HTMLScriptElement>(`script[src="${SRC}"]`);

describe('loadFlutterwave', () => {
  afterEach(() => {
    delete window.FlutterwaveCheckout;
    document.head.querySelectorAll('script').forEach((s) => s.remove());
  });

  it('rejects with the spec message when the script cannot load, and can try again later', async () => {
    const p = loadFlutterwave(SRC);
    script()!.dispatchEvent(new Event('error'));
    await expect(p).rejects.toThrow('Unable to load flutterwave payment modal');
    expect(script()).toBeNull();
    const again = loadFlutterwave(SRC);
    expect(script()).not.toBeNull();
    script()!.dispatchEvent(new Event('error'));
    await expect(again).rejects.toThrow('Unable to load flutterwave payment modal');
  });

  it('rejects when the script loads but defines no checkout', async () => {
    const p = loadFlutterwave(SRC);
    script()!.dispatchEvent(new Event('load'));
    await expect(p).rejects.toThrow('Unable to load flutterwave payment modal');
  });

  it('rejects after the timeout', async () => {
    const p = loadFlutterwave(SRC, 10);
    await expect(p).rejects.toThrow('Unable to load flutterwave payment modal');
  });

  it('loads the script once and answers FlutterwaveCheckout', async () => {
    const a = loadFlutterwave(SRC);
    const b = loadFlutterwave(SRC);
    expect(document.head.querySelectorAll(`script[src="${SRC}"]`)).toHaveLength(1);
    const checkout = () => ({ close() {} });
    window.FlutterwaveCheckout = checkout;
    script()!.dispatchEvent(new Event('load'));
    expect(await a).toBe(checkout);
    expect(await b).toBe(checkout);
  });
});
