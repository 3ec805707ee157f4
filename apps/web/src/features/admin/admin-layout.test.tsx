import { expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { QueryClientProvider } from '@tanstack/react-query';
import userEvent from '@testing-library/user-event';
import { setSession } from '@/lib/session';
import { paths } from '@/lib/paths';
import { testQueryClient } from '@/test/render';
import { AdminLayout } from './admin-layout';

// On a phone the menu is below the page (decision 2353): the page a menu item opens starts at its title.
it('a page chosen from the admin menu opens with its title focused', async () => {
  setSession({ userToken: 't', userType: 'admin', userId: 'a1' });
  const JobsPage = () => (
    <AdminLayout title="Jobs">
      <p>jobs list</p>
    </AdminLayout>
  );
  const DashboardPage = () => (
    <AdminLayout title="Dashboard">
      <p>figures</p>
    </AdminLayout>
  );
  render(
    <QueryClientProvider client={testQueryClient()}>
      <MemoryRouter initialEntries={[paths.adminJobs()]}>
        <Routes>
          <Route path={paths.adminJobs()} element={<JobsPage />} />
          <Route path={paths.adminDashboard()} element={<DashboardPage />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  // Opened by its address, the page leaves focus where the browser puts it.
  expect(screen.getByRole('heading', { level: 1, name: 'Jobs' })).not.toHaveFocus();
  await userEvent.click(screen.getByRole('link', { name: 'Dashboard' }));
  expect(await screen.findByText('figures')).toBeVisible();
  expect(screen.getByRole('heading', { level: 1, name: 'Dashboard' })).toHaveFocus();
});
