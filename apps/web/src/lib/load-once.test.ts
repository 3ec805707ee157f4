import { describe, expect, it, vi } from 'vitest';
import { loadOnce } from './load-once';

describe('loadOnce', () => {
  it('shares one download, and tries again after a failed one', async () => {
    const fetchModule = vi
      .fn<() => Promise<string>>()
      .mockRejectedValueOnce(new Error('Failed to fetch dynamically imported module'))
      .mockResolvedValue('dialog');
    const load = loadOnce(fetchModule);

    const [first, second] = await Promise.allSettled([load(), load()]);
    expect(first.status).toBe('rejected');
    expect(second.status).toBe('rejected');
    expect(fetchModule).toHaveBeenCalledTimes(1);

    await expect(load()).resolves.toBe('dialog');
    await expect(load()).resolves.toBe('dialog');
    expect(fetchModule).toHaveBeenCalledTimes(2);
  });
});
