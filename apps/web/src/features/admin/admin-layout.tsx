import { useEffect, useRef, type ReactNode } from 'react';
import { NavLink, useLocation, useNavigate } from 'react-router';
import { useIsMutating, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  Banknote,
  History,
  KeyRound,
  BookOpen,
  Briefcase,
  Building2,
  CalendarDays,
  CreditCard,
  GitCompareArrows,
  LayoutDashboard,
  LogOut,
  Menu,
  Repeat,
  RotateCcw,
  Scale,
  ShieldCheck,
  Star,
} from 'lucide-react';
import { paths } from '@/lib/paths';
import { api } from '@/lib/http';
import { clearSession } from '@/lib/session';

export const ADMIN_MENU = [
  { label: 'Dashboard', to: paths.adminDashboard(), icon: LayoutDashboard },
  { label: 'Companies', to: paths.adminCompanies(), icon: Building2 },
  { label: 'Lawyers', to: paths.adminLawyers(), icon: Scale },
  { label: 'Jobs', to: paths.adminJobs(), icon: Briefcase },
  { label: 'Payment', to: paths.adminPayment(), icon: CreditCard },
  { label: 'Ledger', to: paths.adminLedger(), icon: BookOpen },
  { label: 'Reconciliation', to: paths.adminReconciliation(), icon: GitCompareArrows },
  { label: 'Refunds', to: paths.adminRefunds(), icon: RotateCcw },
  { label: 'Payouts', to: paths.adminPayouts(), icon: Banknote },
  { label: 'Subscribers', to: paths.adminSubscribers(), icon: Repeat },
  { label: 'Ratings', to: paths.adminRatings(), icon: Star },
  { label: 'Holidays', to: paths.adminHolidays(), icon: CalendarDays },
  { label: 'Audit log', to: paths.adminAudit(), icon: History },
  { label: 'Two-factor', to: paths.twoFactor(), icon: KeyRound },
  { label: 'My data', to: paths.accountData(), icon: ShieldCheck },
] as const;

/** The logout mutation's key: its state is the query client's, not the page's. */
const LOGOUT_KEY = ['admin', 'logout'] as const;

/**
 * The admin side menu around each admin page. On a phone its sixteen items wrapped onto six rows above
 * every page's title: there the page comes first, one line at the top leads to the menu below it, every
 * item still in sight (decision 2353).
 */
export function AdminLayout({ title, children, actions }: { title: string; children: ReactNode; actions?: ReactNode }) {
  const navigate = useNavigate();
  const { pathname, key, state } = useLocation();
  const queryClient = useQueryClient();
  // As the navbar's: on a slow line the server's answer takes a while, and a second tap meanwhile only
  // sent the request again with nothing on screen saying the first was on its way. Each admin page
  // mounts its own layout, so the state is the mutation's in the query client: another admin page
  // opened meanwhile still shows the logout on its way, where a per-page flag let it go out again.
  const leaving = useIsMutating({ mutationKey: LOGOUT_KEY }) > 0;
  const { mutate } = useMutation({
    mutationKey: LOGOUT_KEY,
    mutationFn: async () => {
      try {
        await api('/api/logout', { method: 'POST', allowUnauthorized: true });
      } catch {
        // The session is cleared locally whatever the server says.
      }
    },
    // The mutation's own (not mutate's): it runs though the page that sent it has been left.
    onSettled: () => {
      clearSession();
      queryClient.clear();
      navigate(paths.homeAlias());
    },
  });
  const logout = () => {
    if (!leaving) mutate();
  };
  const menu = useRef<HTMLElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  // On a phone the menu is below the page: the page a menu item opened kept the menu's scroll position
  // and opened past its title. It opens at the top, its title focused, as a page load would read it.
  const fromMenu = (state as { fromAdminMenu?: boolean } | null)?.fromAdminMenu === true;
  useEffect(() => {
    if (!fromMenu) return;
    // Not window.scrollTo: jsdom has none, and this runs on every admin page a test opens by its menu.
    (document.scrollingElement ?? document.documentElement).scrollTop = 0;
    heading.current?.focus({ preventScroll: true });
  }, [fromMenu, key]);
  const item =
    'flex min-h-11 shrink-0 items-center gap-2 rounded-md px-3 text-sm font-medium focus-visible:outline-2 focus-visible:outline-accent';
  return (
    <div className="mx-auto flex w-full max-w-7xl flex-col gap-4 px-3 py-4 md:flex-row md:gap-8 md:px-6 md:py-8">
      {/* A link, so it leads there before the script has loaded on a slow line; after, without a #hash in the address. */}
      <a
        href="#admin-menu"
        onClick={(e) => {
          e.preventDefault();
          menu.current?.scrollIntoView();
          menu.current?.focus();
        }}
        className="inline-flex min-h-11 items-center gap-2 self-start rounded-md px-3 text-sm font-semibold text-brand underline focus-visible:outline-2 focus-visible:outline-accent md:sr-only md:focus:not-sr-only"
      >
        <Menu aria-hidden className="size-4" />
        Go to the admin menu
      </a>
      <section className="min-w-0 flex-1" aria-labelledby="admin-page-title">
        <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
          <h1 ref={heading} id="admin-page-title" tabIndex={-1} className="heading-title text-ink focus:outline-none">
            {title}
          </h1>
          {actions}
        </div>
        {children}
      </section>
      <aside className="md:order-first md:w-56 md:shrink-0">
        <nav
          ref={menu}
          id="admin-menu"
          tabIndex={-1}
          aria-label="Admin menu"
          className="scroll-mt-4 rounded-xl bg-white p-2 shadow-sm ring-1 ring-slate-200"
        >
          <ul className="flex flex-wrap gap-1 md:flex-col md:flex-nowrap">
            {ADMIN_MENU.map(({ label, to, icon: Icon }) => (
              <li key={to}>
                <NavLink
                  to={to}
                  state={{ fromAdminMenu: true }}
                  className={({ isActive }) =>
                    `${item} ${isActive || (to === paths.adminPayment() && pathname === paths.adminGetPaid()) ? 'bg-brand text-white' : 'text-slate-700 hover:bg-slate-100'}`
                  }
                >
                  <Icon aria-hidden className="size-4" />
                  {label}
                </NavLink>
              </li>
            ))}
            <li className="md:mt-4 md:border-t md:border-slate-200 md:pt-2">
              <button
                type="button"
                onClick={logout}
                disabled={leaving}
                aria-busy={leaving || undefined}
                className={`${item} w-full text-red-700 hover:bg-red-50 disabled:opacity-60`}
              >
                <LogOut aria-hidden className="size-4" />
                {leaving ? 'Logging out...' : 'Log out'}
              </button>
            </li>
          </ul>
        </nav>
      </aside>
    </div>
  );
}
