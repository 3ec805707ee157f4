import { expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { QueryClientProvider } from '@tanstack/react-query';
import userEvent from '@testing-library/user-event';
import { getSession, setSession } from '@/lib/session';
import { heldFetch } from '@/test/held-fetch';
import { paths } from '@/lib/paths';
import { renderPage, testQueryClient } from '@/test/render';
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

it('stays busy on the next admin page opened while Log out is on its way, and sends it once', async () => {
  setSession({ userToken: 't', userType: 'admin', userId: 'a1' });
  const stub = heldFetch(
    { 'POST /api/logout': () => ({ body: { status: 'success' } }) },
    ({ url }) => url.pathname === '/api/logout',
  );
  vi.stubGlobal('fetch', stub.fn);
  // Each admin page is a component of its own that mounts its own layout, as the app's pages are.
  const JobsPage = () => (
    <AdminLayout title="Jobs">
      <p>jobs list</p>
    </AdminLayout>
  );
  const CompaniesPage = () => (
    <AdminLayout title="Companies">
      <p>companies list</p>
    </AdminLayout>
  );
  render(
    <QueryClientProvider client={testQueryClient()}>
      <MemoryRouter initialEntries={[paths.adminJobs()]}>
        <Routes>
          <Route path={paths.adminJobs()} element={<JobsPage />} />
          <Route path={paths.adminCompanies()} element={<CompaniesPage />} />
          <Route path="*" element={<p>elsewhere</p>} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  await userEvent.click(screen.getByRole('button', { name: 'Log out' }));
  await waitFor(() => expect(stub.sent).toEqual(['/api/logout']));
  await userEvent.click(screen.getByRole('link', { name: 'Companies' }));
  expect(await screen.findByText('companies list')).toBeVisible();
  const out = screen.getByRole('button', { name: 'Logging out...' });
  expect(out).toBeDisabled();
  expect(out).toHaveAttribute('aria-busy', 'true');
  await userEvent.click(out);
  stub.releaseAll();
  expect(await screen.findByText('elsewhere')).toBeInTheDocument();
  expect(stub.calls.filter((c) => c.method === 'POST')).toHaveLength(1);
  expect(getSession()).toBeNull();
});
