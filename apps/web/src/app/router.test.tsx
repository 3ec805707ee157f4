import { Suspense } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import { MemoryRouter, useLocation, useRoutes } from 'react-router';
import { preloadPage, routes } from './router';

// Counts the loads of the other pages' route table (app/page-routes), which the entry does not carry.
const loads = vi.hoisted(() => ({ pageRoutes: 0 }));
vi.mock('./page-routes', async (importOriginal) => {
  loads.pageRoutes++;
  return importOriginal();
});

// The route table without the layout (its chat button asks the server for the support number).
const pages = routes[0].children!;
function Pages() {
  return <Suspense fallback={<p>loading the page</p>}>{useRoutes(pages)}</Suspense>;
}
const renderAt = (path: string) =>
  render(
    <MemoryRouter initialEntries={[path]}>
      <Pages />
    </MemoryRouter>,
  );

describe('lazy pages', () => {
  it("the landing page loads without the other pages' route table; the first other page brings it", async () => {
    await preloadPage('/');
    await preloadPage('/home');
    expect(loads.pageRoutes).toBe(0);
    await preloadPage('/terms');
    await preloadPage('/privacy');
    expect(loads.pageRoutes).toBe(1);
  });

  it('a page not loaded yet shows the fallback, then the page', async () => {
    renderAt('/about-us');
    expect(screen.getByText('loading the page')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { level: 1, name: 'About us' })).toBeInTheDocument();
  });

  it('a page loaded before the first render (preloadPage) renders at once, without the fallback', async () => {
    await preloadPage('/legal-practitioners-remuneration-order');
    renderAt('/legal-practitioners-remuneration-order');
    expect(screen.queryByText('loading the page')).toBeNull();
    expect(screen.getByRole('heading', { level: 1 })).toBeInTheDocument();
  });

  it('preloadPage matches route parameters and ignores paths of no lazy page', async () => {
    await expect(preloadPage('/pre-cart/3f6c1d0e')).resolves.toBeDefined();
    // The landing page ships with the entry; its sections below the first screen load with it.
    await expect(preloadPage('/')).resolves.toBeDefined();
    await expect(preloadPage('/no/such/page')).resolves.toBeUndefined();
  });

  it('an old sign-up name and an unknown path still lead where they did', async () => {
    function Where() {
      return <p data-testid="where">{useLocation().pathname}</p>;
    }
    // The landing page asks for its figures and the support line: no server here.
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json({ status: 'fail', message: 'Not found' }, { status: 404 })),
    );
    const at = (path: string) =>
      render(
        <MemoryRouter initialEntries={[path]}>
          <Pages />
          <Where />
        </MemoryRouter>,
      );
    at('/lawyer-signup');
    await vi.waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/signup/asalawyer'));
    at('/no/such/page');
    await vi.waitFor(() => expect(screen.getAllByTestId('where')[1]).toHaveTextContent(/^\/$/));
    expect(await screen.findByRole('heading', { level: 1, name: /Affordable legal help/ })).toBeInTheDocument();
  });
});
