import { describe, expect, it, vi } from 'vitest';
import { page, type Module } from './lazy-page';

const Empty = () => null;

describe('page', () => {
  it('shares one download of the page, and tries again after a failed one', async () => {
    const loader = vi
      .fn<() => Promise<Module>>()
      .mockRejectedValueOnce(new Error('Failed to fetch dynamically imported module'))
      .mockResolvedValue({ default: Empty });
    const Page = page(loader);

    const [first, second] = await Promise.allSettled([Page.load(), Page.load()]);
    expect(first.status).toBe('rejected');
    expect(second.status).toBe('rejected');
    expect(loader).toHaveBeenCalledTimes(1);

    await expect(Page.load()).resolves.toEqual({ default: Empty });
    await expect(Page.load()).resolves.toEqual({ default: Empty });
    expect(loader).toHaveBeenCalledTimes(2);
  });
});
