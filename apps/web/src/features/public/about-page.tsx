import { useState } from 'react';
import { Link } from 'react-router';
import { ContactPopup } from '@/components/contact-popup';
import { paths } from '@/lib/paths';

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

export default function AboutPage() {
  const [contact, setContact] = useState(false);
  return (
    <section className="mx-auto max-w-4xl px-4 py-12">
      <h1 className="text-3xl font-bold">About us</h1>
      <h2 className="mt-8 text-xl font-semibold">Our mission</h2>
      <p className="mt-2 text-slate-700">
        Small businesses give about 40% of Nigeria’s GDP, yet most cannot afford a lawyer on retainer. LegalMarket gives
        startups and small businesses fixed-price legal services — contracts, trademarks, employment documents —
        delivered by verified Nigerian lawyers, paid for in naira.
      </p>
      <h2 className="mt-10 text-xl font-semibold">Our team</h2>
      <div className="mt-4 grid gap-4 sm:grid-cols-2">
        {TEAM.map((m) => (
          <article key={m.name} className="flex gap-4 rounded-xl border border-slate-200 p-5">
            <span
              aria-hidden
              className="flex size-14 shrink-0 items-center justify-center rounded-full bg-brand text-lg font-bold text-accent"
            >
              {m.initials}
            </span>
            <div>
              <h3 className="font-semibold">{m.name}</h3>
              <p className="text-sm text-brand">{m.role}</p>
              <p className="mt-1 text-sm text-slate-600">{m.bio}</p>
            </div>
          </article>
        ))}
      </div>
      <div className="mt-10 flex flex-wrap gap-3">
        <button
          type="button"
          onClick={() => setContact(true)}
          className="inline-flex min-h-12 items-center rounded-md border border-brand px-6 font-semibold text-brand hover:bg-brand/5"
        >
          Contact
        </button>
        <Link
          to={paths.signupCompany()}
          className="inline-flex min-h-12 items-center rounded-md bg-brand px-6 font-semibold text-white hover:bg-brand-dark"
        >
          Get started
        </Link>
      </div>
      <ContactPopup open={contact} onClose={() => setContact(false)} />
    </section>
  );
}
