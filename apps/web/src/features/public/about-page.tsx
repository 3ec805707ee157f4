import { useState } from 'react';
import { Link } from 'react-router';
import { BadgeCheck, CalendarCheck, FileSignature, IdCard, Landmark, ShieldCheck } from 'lucide-react';
import { DELIVERY_WORKING_DAYS } from '@legalmarket/contracts/constants';
import { ContactPopup } from '@/components/contact-popup';
import { paths } from '@/lib/paths';
import { PaymentMarks } from './payment-marks';
import { Figure, useShowcase } from './showcase';

const TEAM = [
  {
    name: 'Adaeze Nwosu',
    role: 'Co-founder and lead counsel',
    initials: 'AN',
    bio: 'Corporate and commercial lawyer, ten years advising Lagos startups on contracts and fundraising.',
  },
  {
    name: 'Tunde Bakare',
    role: 'Co-founder and operations',
    initials: 'TB',
    bio: 'Built operations for two Nigerian fintechs; makes sure every job is delivered on time.',
  },
];

/** What our team checks before a lawyer may take a job (the admin's Verify Lawyer step). */
const VERIFICATION = [
  {
    title: 'Enrolled at the Supreme Court',
    text: 'Every lawyer signs up with their Supreme Court Number (SCN) and year of call. We check both against the Roll of Legal Practitioners.',
    Icon: IdCard,
  },
  {
    title: 'A member of the Nigerian Bar Association',
    text: 'We confirm the lawyer’s NBA enrolment and their practice or law firm before anything else.',
    Icon: Landmark,
  },
  {
    title: 'Verified before the first job',
    text: 'Only then does our team mark the account Verified. An unverified lawyer cannot apply for jobs or be assigned one.',
    Icon: BadgeCheck,
  },
];

export default function AboutPage() {
  const [contact, setContact] = useState(false);
  const showcase = useShowcase();
  return (
    <>
      <section className="bg-sand">
        <div className="mx-auto grid max-w-6xl gap-8 px-4 py-12 md:grid-cols-[3fr_2fr] md:items-center">
          <div>
            <h1 className="heading-display text-ink">About us</h1>
            <h2 className="heading-section mt-6">Our mission</h2>
            <p className="mt-2 max-w-prose text-lg text-slate-700">
              Small businesses give about 40% of Nigeria’s GDP, yet most cannot afford a lawyer on retainer. LegalMarket
              gives startups and small businesses fixed-price legal services — contracts, trademarks, employment
              documents — delivered by verified Nigerian lawyers, paid for in naira.
            </p>
          </div>
          <dl className="grid grid-cols-2 gap-4" aria-label="LegalMarket in figures">
            <div className="rounded-xl bg-white flex flex-col p-5 shadow-sm">
              <dt className="order-2 mt-1 text-sm text-slate-600">Verified lawyers</dt>
              <dd className="order-1 text-3xl font-bold text-brand" data-testid="about-verified-lawyers">
                <Figure value={showcase?.verifiedLawyers} />
              </dd>
            </div>
            <div className="rounded-xl bg-white flex flex-col p-5 shadow-sm">
              <dt className="order-2 mt-1 text-sm text-slate-600">Jobs completed</dt>
              <dd className="order-1 text-3xl font-bold text-brand" data-testid="about-jobs-completed">
                <Figure value={showcase?.jobsCompleted} />
              </dd>
            </div>
            <div className="rounded-xl bg-white flex flex-col p-5 shadow-sm">
              <dt className="order-2 mt-1 text-sm text-slate-600">Working days to delivery, after purchase</dt>
              <dd className="order-1 text-3xl font-bold text-brand">7–{DELIVERY_WORKING_DAYS}</dd>
            </div>
            <div className="rounded-xl bg-white flex flex-col p-5 shadow-sm">
              <dt className="order-2 mt-1 text-sm text-slate-600">Fixed prices in naira, shown before you pay</dt>
              <dd className="order-1 text-3xl font-bold text-brand">₦</dd>
            </div>
          </dl>
        </div>
      </section>

      <section className="mx-auto max-w-6xl px-4 py-12" aria-labelledby="verify-heading">
        <h2 id="verify-heading" className="heading-title">
          How we verify lawyers
        </h2>
        <ol className="mt-6 grid gap-4 md:grid-cols-3">
          {VERIFICATION.map(({ title, text, Icon }, i) => (
            <li key={title} className="rounded-xl border border-slate-200 p-6">
              <div className="flex items-center gap-3">
                <span
                  aria-hidden
                  className="flex size-10 shrink-0 items-center justify-center rounded-full bg-brand text-lg font-bold text-accent"
                >
                  {i + 1}
                </span>
                <Icon aria-hidden className="size-6 text-brand" />
              </div>
              <h3 className="mt-4 text-lg font-semibold">{title}</h3>
              <p className="mt-2 text-slate-700">{text}</p>
            </li>
          ))}
        </ol>
        <p className="mt-6 flex max-w-prose items-start gap-2 text-slate-700">
          <ShieldCheck aria-hidden className="mt-1 size-5 shrink-0 text-brand" />
          Your documents are seen only by our staff and the lawyer assigned to your job.
        </p>
      </section>

      <section className="mx-auto max-w-6xl px-4 pb-12" aria-labelledby="team-heading">
        <h2 id="team-heading" className="heading-title">
          Our team
        </h2>
        <div className="mt-6 grid gap-4 sm:grid-cols-2">
          {TEAM.map((m) => (
            <article key={m.name} className="flex gap-4 rounded-xl border border-slate-200 p-6">
              <span
                aria-hidden
                className="flex size-16 shrink-0 items-center justify-center rounded-full bg-brand text-xl font-bold text-accent"
              >
                {m.initials}
              </span>
              <div>
                <h3 className="text-lg font-semibold">{m.name}</h3>
                <p className="text-sm font-semibold text-brand">{m.role}</p>
                <p className="mt-2 text-slate-600">{m.bio}</p>
              </div>
            </article>
          ))}
        </div>
      </section>

      <section className="bg-brand text-white" aria-labelledby="start-heading">
        <div className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-12 md:flex-row md:items-center md:justify-between">
          <div>
            <h2 id="start-heading" className="heading-title">
              Legal work done, in {DELIVERY_WORKING_DAYS} working days or less
            </h2>
            <p className="mt-2 flex items-center gap-2 text-white/85">
              <CalendarCheck aria-hidden className="size-5 shrink-0" />
              Pay in naira, then follow your job from your dashboard.
            </p>
            <PaymentMarks className="mt-4" />
          </div>
          <div className="flex flex-wrap gap-3">
            <button
              type="button"
              onClick={() => setContact(true)}
              className="inline-flex min-h-12 items-center rounded-md border border-white px-6 font-semibold text-white hover:bg-white/10"
            >
              Contact
            </button>
            <Link
              to={paths.signupCompany()}
              className="inline-flex min-h-12 items-center gap-2 rounded-md bg-accent px-6 font-semibold text-ink hover:brightness-95"
            >
              <FileSignature aria-hidden className="size-5" />
              Get started
            </Link>
          </div>
        </div>
      </section>
      <ContactPopup open={contact} onClose={() => setContact(false)} />
    </>
  );
}
