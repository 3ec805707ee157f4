import { Suspense } from 'react';
import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { MemoryRouter, useRoutes } from 'react-router';
import { preloadPage, routes } from './router';

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
});
