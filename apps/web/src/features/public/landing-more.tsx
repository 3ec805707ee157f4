import { useState } from 'react';
import { Link } from 'react-router';
import { BadgeCheck, ChevronLeft, ChevronRight, ShieldCheck, Users, Wallet } from 'lucide-react';
import type { Product } from '@legalmarket/contracts/catalogue';
import { DELIVERY_NOTICE } from '@legalmarket/contracts/delivery';
import { paths } from '@/lib/paths';
import { ProductCard } from '@/features/catalogue/product-card';

// The landing page below its first screen: its own chunk, loaded with the page (preloadLanding) but
// not part of the first route's JavaScript budget; the server renders it into the HTML all the same.

const REASONS = [
  {
    title: 'Fixed, affordable prices',
    text: 'You see the price in naira before you buy. No hourly billing, no surprises.',
    Icon: Wallet,
  },
  {
    title: 'Verified lawyers',
    text: 'Every lawyer is checked by our team (Supreme Court Number and practice) before taking a job.',
    Icon: BadgeCheck,
  },
  {
    title: 'Confidential by design',
    text: 'Your documents are seen only by our staff and the lawyer assigned to your job.',
    Icon: ShieldCheck,
  },
  {
    title: 'Built for startups',
    text: 'Small businesses give about 40% of Nigeria’s GDP. We make legal help fit their budgets.',
    Icon: Users,
  },
];

const STEPS = [
  {
    id: 'join',
    label: 'Join us',
    text: 'Sign up as a company in two short steps and confirm your email address. Account verification takes about one hour.',
  },
  {
    id: 'choose',
    label: 'Choose a product',
    text: 'Browse single services or a monthly package (Bronze, Silver or Gold) and pick what your business needs.',
  },
  {
    id: 'purchase',
    label: 'Purchase or reserve',
    text: 'Reserve items in your cart with the details and documents the lawyer needs, then pay by card, mobile money or USSD. Delivery is 7-10 working days after purchase.',
  },
] as const;

/** Short answers to what a founder asks before paying a stranger online. */
const FAQ = [
  {
    q: 'Who are the lawyers?',
    a: 'Nigerian lawyers enrolled at the Supreme Court and members of the Nigerian Bar Association. Before a lawyer can take a job, our team checks their Supreme Court Number (SCN), year of call and practice. Only verified lawyers are assigned your work.',
  },
  {
    q: 'How long does delivery take?',
    a: `${DELIVERY_NOTICE}. You follow every step of your job from your dashboard, and the lawyer can ask you for more details there.`,
  },
  {
    q: 'How do I pay?',
    a: 'In naira, at the fixed price shown on the product, by card (Visa, Mastercard or Verve), bank transfer, mobile money or USSD, through Flutterwave. You get a receipt by email.',
  },
  {
    q: 'Who sees my documents?',
    a: 'Only our staff and the lawyer assigned to your job. Documents are never shown to other companies or lawyers.',
  },
  {
    q: 'Do I need an account to look around?',
    a: 'No. Browse every product with its fixed price first; you create a company account when you are ready to buy.',
  },
];
const noop = () => {};

export default function LandingMore({ products }: { products: readonly Product[] | undefined }) {
  const [slide, setSlide] = useState(0);
  const reason = REASONS[slide];
  // Below the first screen: laid out and painted as they come near it (see the landing page).
  return (
    <>
      <section
        className="bg-brand text-white [contain-intrinsic-size:auto_40rem] [content-visibility:auto]"
        aria-roledescription="carousel"
        aria-labelledby="why-heading"
      >
        <div className="mx-auto max-w-4xl px-4 py-14 text-center">
          <h2 id="why-heading" className="heading-title">
            Why Choose Us
          </h2>
          <div className="mt-6 flex items-center gap-2">
            <button
              type="button"
              aria-label="Previous reason"
              onClick={() => setSlide((slide - 1 + REASONS.length) % REASONS.length)}
              className="flex size-11 shrink-0 items-center justify-center rounded-full hover:bg-white/10"
            >
              <ChevronLeft className="size-6" aria-hidden />
            </button>
            <div
              className="min-h-44 flex-1"
              aria-live="polite"
              aria-roledescription="slide"
              aria-label={`${slide + 1} of ${REASONS.length}`}
            >
              <reason.Icon className="mx-auto size-10 text-accent" aria-hidden />
              <h3 className="mt-3 text-xl font-semibold">{reason.title}</h3>
              <p className="mx-auto mt-2 max-w-prose text-white/85">{reason.text}</p>
              <Link
                to={paths.signupCompany()}
                className="mt-4 inline-flex min-h-11 items-center rounded-md bg-accent px-5 font-semibold text-ink hover:brightness-95"
              >
                Join us
              </Link>
            </div>
            <button
              type="button"
              aria-label="Next reason"
              onClick={() => setSlide((slide + 1) % REASONS.length)}
              className="flex size-11 shrink-0 items-center justify-center rounded-full hover:bg-white/10"
            >
              <ChevronRight className="size-6" aria-hidden />
            </button>
          </div>
          <div className="mt-4 flex justify-center gap-2">
            {REASONS.map((r, i) => (
              <button
                key={r.title}
                type="button"
                aria-label={`Show reason ${i + 1}`}
                aria-current={i === slide}
                onClick={() => setSlide(i)}
                className="flex size-11 items-center justify-center"
              >
                <span className={`size-2.5 rounded-full ${i === slide ? 'bg-accent' : 'bg-white/40'}`} />
              </button>
            ))}
          </div>
        </div>
      </section>

      <section
        className="mx-auto max-w-6xl px-4 py-14 [contain-intrinsic-size:auto_40rem] [content-visibility:auto]"
        aria-labelledby="how-heading"
      >
        <h2 id="how-heading" className="heading-title">
          How it Works
        </h2>
        {/* Three steps side by side, stacked on phones: tabs were cut off on a 360 px screen. */}
        <ol className="mt-6 grid gap-4 md:grid-cols-3">
          {STEPS.map((s, i) => (
            <li key={s.id} className="flex gap-4 rounded-xl bg-sand p-6 md:flex-col">
              <span
                aria-hidden
                className="flex size-10 shrink-0 items-center justify-center rounded-full bg-brand text-lg font-bold text-accent"
              >
                {i + 1}
              </span>
              <div>
                <h3 className="text-lg font-semibold">
                  <span className="sr-only">Step {i + 1}: </span>
                  {s.label}
                </h3>
                <p className="mt-2 text-slate-700">{s.text}</p>
              </div>
            </li>
          ))}
        </ol>
      </section>

      {products && products.length > 0 && (
        <section
          className="mx-auto max-w-6xl px-4 pb-14 [contain-intrinsic-size:auto_40rem] [content-visibility:auto]"
          aria-labelledby="featured-heading"
        >
          <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
            <h2 id="featured-heading" className="heading-title">
              Featured products
            </h2>
            <Link
              to={paths.products()}
              className="inline-flex min-h-11 items-center font-semibold text-brand underline"
            >
              See all products
            </Link>
          </div>
          <ul className="mt-6 grid grid-cols-1 gap-6 sm:grid-cols-2 lg:grid-cols-3" aria-label="Featured products">
            {products.map((p) => (
              <ProductCard key={p._id} product={p} isAdmin={false} eager={false} onEdit={noop} onDelete={noop} />
            ))}
          </ul>
        </section>
      )}

      <section
        className="bg-sand [contain-intrinsic-size:auto_40rem] [content-visibility:auto]"
        aria-labelledby="faq-heading"
      >
        <div className="mx-auto max-w-3xl px-4 py-14">
          <h2 id="faq-heading" className="heading-title">
            Questions founders ask
          </h2>
          <div className="mt-6 divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white">
            {FAQ.map(({ q, a }) => (
              <details key={q} className="group">
                <summary className="flex min-h-12 cursor-pointer list-none items-center justify-between gap-4 px-5 py-3 font-semibold text-ink [&::-webkit-details-marker]:hidden">
                  {q}
                  <ChevronRight
                    aria-hidden
                    className="size-5 shrink-0 text-brand transition-transform group-open:rotate-90"
                  />
                </summary>
                <p className="px-5 pb-4 text-slate-700">{a}</p>
              </details>
            ))}
          </div>
        </div>
      </section>
    </>
  );
}
