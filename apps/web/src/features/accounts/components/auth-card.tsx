import type { ReactNode } from 'react';

/** The framed card every account page sits in. */
export function AuthCard({
  title,
  subtitle,
  children,
  wide,
}: {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  wide?: boolean;
}) {
  return (
    <section className={`mx-auto w-full px-4 py-10 ${wide ? 'max-w-2xl' : 'max-w-md'}`}>
      <div className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
        <h1 className="heading-title text-ink">{title}</h1>
        {subtitle && <div className="mt-1 text-sm text-slate-600">{subtitle}</div>}
        <div className="mt-6">{children}</div>
      </div>
    </section>
  );
}
