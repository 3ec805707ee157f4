import { Link } from 'react-router';
import { paths } from '@/lib/paths';

export type PaymentSection = 'details' | 'get-paid';

/** Side menu of the lawyer payment page: Payment Details, Get Paid, Profile. */
export function PaymentSideMenu({
  section,
  onSection,
  lawyerId,
}: {
  section: PaymentSection;
  onSection: (s: PaymentSection) => void;
  lawyerId: string;
}) {
  const item = (active: boolean) =>
    `flex min-h-11 w-full items-center rounded-md px-3 text-left text-sm font-semibold ${
      active ? 'bg-brand text-white' : 'text-slate-700 hover:bg-slate-100'
    }`;
  return (
    <nav aria-label="Payment menu" className="rounded-xl border border-slate-200 bg-white p-2 shadow-sm">
      <ul className="flex gap-1 md:flex-col">
        <li className="flex-1">
          <button
            type="button"
            className={item(section === 'details')}
            aria-current={section === 'details' ? 'page' : undefined}
            onClick={() => onSection('details')}
          >
            Payment Details
          </button>
        </li>
        <li className="flex-1">
          <button
            type="button"
            className={item(section === 'get-paid')}
            aria-current={section === 'get-paid' ? 'page' : undefined}
            onClick={() => onSection('get-paid')}
          >
            Get Paid
          </button>
        </li>
        <li className="flex-1">
          <Link to={paths.lawyerProfile(lawyerId)} className={item(false)}>
            Profile
          </Link>
        </li>
      </ul>
    </nav>
  );
}
