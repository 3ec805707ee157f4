import { Link } from 'react-router';
import { privacyMessages } from '@legalmarket/contracts/privacy';
import { paths } from '@/lib/paths';

/** Where a deleted account lands, signed out (decision 2030). */
export default function AccountDeletedPage() {
  return (
    <section className="mx-auto max-w-xl px-4 py-12 text-center">
      <h1 className="heading-title text-ink">Account deleted</h1>
      <p role="status" className="mt-3 text-slate-700">
        {privacyMessages.accountDeleted}
      </p>
      <Link to={paths.home()} className="mt-6 inline-block font-semibold text-brand underline">
        Back to LegalMarket
      </Link>
    </section>
  );
}
