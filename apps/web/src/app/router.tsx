import { useRoutes, type RouteObject } from 'react-router';
import { RootLayout } from './layout/root-layout';
import { page } from './lazy-page';
// The landing page is the first page most visitors see: it ships with the entry, saving a round trip before it paints.
import LandingPage, { preloadLanding } from '@/features/public/landing-page';

/**
 * Every page but the landing page: their route table, the route guard and the names of their chunks load
 * with the first of them (see preloadPage), not with the entry, which then keeps the first route's
 * JavaScript small for mobile networks.
 */
const OtherPages = page(() => import('./page-routes'));

/** The route tables of both spec documents: / and /home here, the others in app/page-routes. */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      { path: '/', element: <LandingPage /> },
      { path: '/home', element: <LandingPage /> },
      { path: '*', element: <OtherPages /> },
    ],
  },
];

/**
 * Declarative routing (useRoutes inside BrowserRouter): the same route table without the data-router
 * machinery, which keeps the first page's JavaScript small for mobile networks.
 */
export function AppRoutes() {
  return useRoutes(routes);
}

const isLanding = (pathname: string) => /^\/(home\/?)?$/.test(pathname);

/**
 * Starts loading the lazy page of `pathname`, before the first render: its chunks were asked for with
 * the entry (the server lists them in index.html), so they are usually there by the time React renders,
 * and the page then renders at once instead of after a Loading fallback.
 */
export function preloadPage(pathname: string): Promise<unknown> {
  if (isLanding(pathname)) return preloadLanding();
  // The other pages' route table first (OtherPages then renders at once), then the page itself.
  return OtherPages.load().then(
    (m) => m.preloadLazyPage(pathname),
    () => undefined,
  );
}

/**
 * Loads the other pages' route table once the first page is up and the browser idle (src/main.tsx), so
 * the first link followed from the landing page fetches only that page's own chunks, as before.
 */
export function prefetchPageRoutes(): void {
  void OtherPages.load().catch(() => undefined);
}
