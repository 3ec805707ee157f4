import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { App } from '@/app/app';
import { prefetchPageRoutes, preloadPage } from '@/app/router';
import { preloadContactPopup } from '@/components/contact-popup';
import { pageData } from '@/early';
import './styles.css';

// The page's chunks were asked for with the entry (index.html lists them), its data by src/early.ts:
// waiting a moment for both lets the first render show the page with its data. Rendered before, React
// shows the Loading fallback, holds the page back up to 300 ms after it, and renders twice.
// (Not a top-level await: the page chunks import this one, which would then wait for them.)
const pathname = window.location.pathname;
void Promise.race([Promise.all([preloadPage(pathname), pageData]), new Promise((done) => setTimeout(done, 500))]).then(
  () => {
    const root = document.getElementById('root')!;
    const app = (
      <StrictMode>
        <BrowserRouter>
          <App />
        </BrowserRouter>
      </StrictMode>
    );
    // A page the server rendered (src/entry-server.tsx) is taken over as it is, not painted again.
    if (root.firstElementChild) hydrateRoot(root, app);
    else createRoot(root).render(app);
  },
);
// What the first page leaves out of its code, once it has loaded and the browser is idle: the other pages'
// route table (app/page-routes) and the Contact pop-up. The first link followed from the landing page then
// waits for that page's chunks alone, and Contact opens at once, as when both shipped with the entry.
const prefetchDeferred = () => {
  prefetchPageRoutes();
  preloadContactPopup();
};
window.addEventListener(
  'load',
  () => ('requestIdleCallback' in window ? requestIdleCallback(prefetchDeferred) : setTimeout(prefetchDeferred, 1)),
  { once: true },
);
// The service worker (apps/web/scripts/service-worker.mjs, decision 1840), once the page has loaded so it
// never competes with the first visit's own requests; not in development (Vite's server has no sw.js).
// Without it the app works as before: only repeat visits and offline reading are lost.
if (import.meta.env.PROD && 'serviceWorker' in navigator)
  window.addEventListener('load', () => navigator.serviceWorker.register('/sw.js').catch(() => undefined), {
    once: true,
  });
