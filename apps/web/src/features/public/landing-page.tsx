import { useState } from 'react';
import { Link } from 'react-router';
import {
  BadgeCheck,
  BriefcaseBusiness,
  ChevronLeft,
  ChevronRight,
  FileSignature,
  Lightbulb,
  ShieldCheck,
  Users,
  Wallet,
} from 'lucide-react';
import { Tabs } from '@/components/tabs';
import { ContactPopup } from '@/components/contact-popup';
import { paths } from '@/lib/paths';

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
type StepId = (typeof STEPS)[number]['id'];

export default function LandingPage() {
  const [slide, setSlide] = useState(0);
  const [step, setStep] = useState<StepId>('join');
  const [contact, setContact] = useState(false);
  const reason = REASONS[slide];
  const current = STEPS.find((s) => s.id === step)!;
  return (
    <>
      <section className="bg-sand">
        <div className="mx-auto grid max-w-6xl items-center gap-8 px-4 py-14 md:grid-cols-2 md:py-20">
          <div>
            <p className="text-sm font-semibold tracking-wide text-brand uppercase">
              Legal services for Nigerian businesses
            </p>
            <h1 className="mt-3 text-3xl leading-tight font-bold text-ink sm:text-5xl">
              Affordable legal help for your startup, at a fixed price.
            </h1>
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
          <div aria-hidden className="hidden justify-center md:flex">
            <div className="grid size-72 place-items-center rounded-full bg-brand text-accent shadow-xl">
              <ShieldCheck className="size-32" strokeWidth={1.2} />
            </div>
          </div>
        </div>
      </section>

      <section className="mx-auto max-w-6xl px-4 py-14" aria-labelledby="services-heading">
        <h2 id="services-heading" className="text-2xl font-bold">
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

      <section className="bg-brand text-white" aria-roledescription="carousel" aria-labelledby="why-heading">
        <div className="mx-auto max-w-4xl px-4 py-14 text-center">
          <h2 id="why-heading" className="text-2xl font-bold">
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

      <section className="mx-auto max-w-4xl px-4 py-14" aria-labelledby="how-heading">
        <h2 id="how-heading" className="mb-4 text-2xl font-bold">
          How it Works
        </h2>
        <Tabs label="How it works" tabs={STEPS} value={step} onChange={setStep} />
        <div role="tabpanel" className="rounded-xl bg-sand p-6">
          <h3 className="text-lg font-semibold">{current.label}</h3>
          <p className="mt-2 text-slate-700">{current.text}</p>
        </div>
      </section>

      <section className="mx-auto max-w-4xl px-4 pb-6 text-center">
        <h2 className="text-2xl font-bold">Not sure what you need?</h2>
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
