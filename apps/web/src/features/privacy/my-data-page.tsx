import { DataProtectionSection } from './data-protection-section';

/** /account/data: the data protection rights for every role (admins have no profile page of their own). */
export default function MyDataPage() {
  return (
    <section className="mx-auto max-w-3xl px-4 py-8">
      <h1 className="heading-title text-ink">My account and data</h1>
      <DataProtectionSection />
    </section>
  );
}
