import { lazy, Suspense, useState } from 'react';
import { Link } from 'react-router';
import { BadgeCheck, BriefcaseBusiness, CalendarCheck, FileSignature, Lightbulb } from 'lucide-react';
import { DELIVERY_WORKING_DAYS } from '@legalmarket/contracts/delivery';
import { ContactPopup } from '@/components/contact-popup';
import { paths } from '@/lib/paths';
import heroUrl from './assets/hero-illustration.svg';
// Only in the server build (see heroSource): the browser's code never carries the picture itself.
import heroInline from './assets/hero-illustration.svg?inline';
import { PaymentMarks } from './payment-marks';
import { Figure, useShowcase } from './showcase';

const SERVICES = [
  {
    title: 'Contract Law',
    Icon: FileSignature,
    text: 'Service agreements, NDAs, shareholder and vendor contracts drafted or reviewed by verified Nigerian lawyers, at a fixed price.',
  },
  {
    title: 'Intellectual Property',
    Icon: Lightbulb,
    text: 'Protect your brand and your work: trademark searches and filings, copyright and licensing documents.',
  },
  {
    title: 'Employment Law',
    Icon: BriefcaseBusiness,
    text: 'Offer letters, employment contracts, staff handbooks and policies that keep your team and your business safe.',
  },
];

type More = typeof import('./landing-more');
let more: More | undefined;
let loadingMore: Promise<More> | undefined;

/**
 * Loads the sections below the first screen (Why Choose Us, How it Works, featured products, FAQ).
 * app/router's preloadPage calls it for / before the first render, on the server and in the browser,
 * so they render in the same pass as the rest; they stay out of the first route's JavaScript.
 */
export function preloadLanding(): Promise<unknown> {
  loadingMore ??= import('./landing-more').then(
    (m) => (more = m),
    (err: unknown) => {
      loadingMore = undefined; // a later try may work
      throw err;
    },
  );
  return loadingMore.catch(() => undefined);
}

// A thenable that answers at once once loaded: React renders it without a fallback (as app/router's pages).
const LandingMore = lazy(() =>
  more
    ? ({ then: (done: (m: More) => void) => done(more!) } as unknown as Promise<More>)
    : preloadLanding().then(() => {
        if (!more) throw new Error('The landing page could not be loaded');
        return more;
      }),
);

/**
 * The hero picture, the page's largest element on a phone. The server writes it into the HTML as a data:
 * URL (3 KB), so it paints with the HTML instead of one request later; the browser keeps the picture the
 * HTML has, so hydration finds what the server rendered. Drawn in the browser (a visit that began on
 * another page), it is the file, precached by the service worker; the first route's code stays without it
 * (issue 15, decision 1850).
 */
function heroSource(): string {
  if (import.meta.env.SSR) return heroInline;
  return document.querySelector<HTMLImageElement>('img[data-hero]')?.getAttribute('src') ?? heroUrl;
}

export default function LandingPage() {
  const [contact, setContact] = useState(false);
  const [hero] = useState(heroSource);
  const showcase = useShowcase();
  return (
    <>
      <section className="bg-sand">
        <div className="mx-auto grid max-w-6xl items-center gap-8 px-4 py-10 md:grid-cols-2 md:py-16">
          <div>
            <p className="text-sm font-semibold tracking-wide text-brand uppercase">
              Legal services for Nigerian businesses
            </p>
            <h1 className="heading-display mt-3 text-ink">Affordable legal help for your startup, at a fixed price.</h1>
            <p className="mt-4 max-w-prose text-lg text-slate-700">
              Contracts, trademarks and employment documents prepared by verified lawyers. Pay in naira by card, mobile
              money or USSD.
            </p>
            <div className="mt-6 flex flex-wrap gap-3">
              <Link
                to={paths.products()}
                className="inline-flex min-h-12 items-center rounded-md bg-brand px-6 font-semibold text-white hover:bg-brand-dark"
              >
                Shop our products
              </Link>
              <Link
                to={paths.signupCompany()}
                className="inline-flex min-h-12 items-center rounded-md border border-brand px-6 font-semibold text-brand hover:bg-brand/5"
              >
                Get started
              </Link>
            </div>
          </div>
          {/* An illustration, not a photograph: no licence-free photograph of Nigerian founders or
              lawyers could be had here, and a stock face posing as our customer would not be honest
              (decision 1830). Vector, 3 KB: sharp at every width, no srcset needed. */}
          <img
            src={hero}
            alt="A contract with a signature and a verified seal, next to a phone showing a payment in naira"
            width={560}
            height={440}
            fetchPriority="high"
            decoding="async"
            className="mx-auto h-auto w-full max-w-72 sm:max-w-md md:max-w-none"
            data-hero=""
          />
        </div>
      </section>

      <section aria-label="LegalMarket in figures" className="border-b border-slate-200 bg-white">
        <dl className="mx-auto grid max-w-6xl grid-cols-2 gap-x-4 gap-y-6 px-4 py-8 lg:grid-cols-4">
          <div className="flex flex-col gap-1">
            <dt className="order-2 text-sm text-slate-600">Verified lawyers</dt>
            <dd
              className="order-1 flex items-center gap-2 text-2xl font-bold text-brand"
              data-testid="verified-lawyers"
            >
              <BadgeCheck aria-hidden className="size-6 shrink-0" />
              <Figure value={showcase?.verifiedLawyers} />
            </dd>
          </div>
          <div className="flex flex-col gap-1">
            <dt className="order-2 text-sm text-slate-600">Jobs completed</dt>
            <dd className="order-1 flex items-center gap-2 text-2xl font-bold text-brand" data-testid="jobs-completed">
              <FileSignature aria-hidden className="size-6 shrink-0" />
              <Figure value={showcase?.jobsCompleted} />
            </dd>
          </div>
          <div className="flex flex-col gap-1">
            <dt className="order-2 text-sm text-slate-600">Working days to delivery, after purchase</dt>
            <dd className="order-1 flex items-center gap-2 text-2xl font-bold text-brand">
              <CalendarCheck aria-hidden className="size-6 shrink-0" />
              {/* The spec's promise (DELIVERY_NOTICE): 7-10 working days. */}
              7–{DELIVERY_WORKING_DAYS}
            </dd>
          </div>
          <div className="col-span-2 flex flex-col gap-2 lg:col-span-1">
            <dt className="order-2 text-sm text-slate-600">Card, transfer, mobile money or USSD, in naira</dt>
            <dd className="order-1">
              <PaymentMarks />
            </dd>
          </div>
        </dl>
      </section>

      {/* The sections below the first screen are laid out and painted as they come near it
          (content-visibility, their last size kept): the first paint, the hero's, does not wait for
          them (issue 15). */}
      <section
        className="mx-auto max-w-6xl px-4 py-14 [contain-intrinsic-size:auto_40rem] [content-visibility:auto]"
        aria-labelledby="services-heading"
      >
        <h2 id="services-heading" className="heading-title">
          Our services
        </h2>
        <div className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {SERVICES.map(({ title, text, Icon }) => (
            <article key={title} className="rounded-xl border border-slate-200 p-6">
              <Icon className="size-8 text-brand" aria-hidden />
              <h3 className="mt-3 text-lg font-semibold">{title}</h3>
              <p className="mt-2 text-slate-600">{text}</p>
              <Link
                to={paths.products(title)}
                className="mt-3 inline-flex min-h-11 items-center font-semibold text-brand hover:underline"
              >
                See {title} services
              </Link>
            </article>
          ))}
        </div>
      </section>
      {/* Rendered by the server too: preloadLanding runs before the page renders (app/router). */}
      <Suspense fallback={null}>
        <LandingMore products={showcase?.products} />
      </Suspense>

      <section className="mx-auto max-w-4xl px-4 pt-14 pb-6 text-center [contain-intrinsic-size:auto_40rem] [content-visibility:auto]">
        <h2 className="heading-title">Not sure what you need?</h2>
        <p className="mt-2 text-slate-600">Talk to us. We will help you pick the right service for your business.</p>
        <button
          type="button"
          onClick={() => setContact(true)}
          className="mt-4 inline-flex min-h-12 items-center rounded-md bg-brand px-6 font-semibold text-white hover:bg-brand-dark"
        >
          Contact us
        </button>
        <ContactPopup open={contact} onClose={() => setContact(false)} />
      </section>
    </>
  );
}
