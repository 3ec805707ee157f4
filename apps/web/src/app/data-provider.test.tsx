import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { jsonFetch } from '@/test/render';
import { setSession } from '@/lib/session';
import { Navbar } from './layout/navbar';
import { DataProvider, queryClient } from './data-provider';

afterEach(() => queryClient.clear());

const line = (n: number) => ({
  productId: `p${n}`,
  quantity: 1,
  detail: null,
  file: null,
  fileName: null,
  price: 45000,
  productName: `Product ${n}`,
  productImage: '/uploads/p.png',
});

/** Another tab of this browser writes the stored session: this tab hears it as a storage event. */
function otherTabSignsIn(session: { userToken: string; userType: string; userId: string }) {
  for (const [key, value] of Object.entries(session)) {
    localStorage.setItem(key, value);
    window.dispatchEvent(new StorageEvent('storage', { key, newValue: value }));
  }
}

describe('the query cache across users', () => {
  it("drops one company's data when another tab signs in as another company", { timeout: 15_000 }, async () => {
    const api = jsonFetch({
      'GET /api/cart': (init) =>
        (init?.headers as Record<string, string>).authorization === 'Bearer token-a'
          ? { body: [{ products: [line(1), line(2), line(3)], bill: 135000 }] }
          : { status: 404, body: { status: 'fail', message: 'Your cart is empty' } },
    });
    vi.stubGlobal('fetch', api.fn);
    setSession({ userToken: 'token-a', userType: 'company', userId: 'company-a' });
    render(
      <DataProvider>
        <MemoryRouter initialEntries={['/products']}>
          <Navbar />
        </MemoryRouter>
      </DataProvider>,
    );
    expect((await screen.findAllByRole('link', { name: 'Cart, 3 items' })).length).toBeGreaterThan(0);

    act(() => otherTabSignsIn({ userToken: 'token-b', userType: 'company', userId: 'company-b' }));

    expect((await screen.findAllByRole('link', { name: 'Cart, 0 items' })).length).toBeGreaterThan(0);
    expect(screen.queryByRole('link', { name: 'Cart, 3 items' })).toBeNull();
    const last = api.calls.at(-1)!;
    expect((last.init?.headers as Record<string, string>).authorization).toBe('Bearer token-b');
  });
});
