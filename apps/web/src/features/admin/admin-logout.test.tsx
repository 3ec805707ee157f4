import { expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { getSession, setSession } from '@/lib/session';
import { heldFetch } from '@/test/held-fetch';
import { renderPage } from '@/test/render';
import { AdminLayout } from './admin-layout';

it('sends Log out once on a slow line, busy until the server answers', async () => {
  setSession({ userToken: 't', userType: 'admin', userId: 'a1' });
  const stub = heldFetch(
    { 'POST /api/logout': () => ({ body: { status: 'success' } }) },
    ({ url }) => url.pathname === '/api/logout',
  );
  vi.stubGlobal('fetch', stub.fn);
  renderPage(
    <AdminLayout title="Jobs">
      <p>list</p>
    </AdminLayout>,
  );
  const out = screen.getByRole('button', { name: 'Log out' });
  await userEvent.click(out);
  await waitFor(() => expect(stub.sent).toEqual(['/api/logout']));
  expect(out).toBeDisabled();
  expect(out).toHaveAttribute('aria-busy', 'true');
  expect(out).toHaveTextContent('Logging out...');
  await userEvent.click(out);
  stub.release();
  expect(await screen.findByText('elsewhere')).toBeInTheDocument();
  expect(stub.calls.filter((c) => c.method === 'POST')).toHaveLength(1);
  expect(getSession()).toBeNull();
});
