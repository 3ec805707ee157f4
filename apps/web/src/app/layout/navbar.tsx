import { lazy, Suspense, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Link, NavLink, useLocation, useNavigate } from 'react-router';
import { ChevronDown, Menu, MessageCircle, ShoppingCart, UserRound, X } from 'lucide-react';
import { readReservedItems, RESERVED_CHANGED } from '@/features/cart/reserved-read';
import { usePublicConfig, whatsappLink } from '@/lib/public-config';
import { api } from '@/lib/http';
import { clearData } from '@/lib/data-cache';
import { clearSession, type Session } from '@/lib/session';
import { paths } from '@/lib/paths';
import { useSession } from '@/lib/use-session';
import { ContactPopup } from '@/components/contact-popup';

// Only signed-in users see it: its code stays off a visitor's first load.
const NotificationBell = lazy(() => import('@/features/notifications/bell'));

const AUTH_PAGES = [/^\/login/, /^\/signup\//, /^\/password-reset/, /^\/new-password\//, /^\/otp\//];
const isAuthPage = (pathname: string) => AUTH_PAGES.some((r) => r.test(pathname));

const dashboardFor = (s: Session) =>
  s.userType === 'admin'
    ? paths.adminDashboard()
    : s.userType === 'lawyer'
      ? paths.lawyerDashboard()
      : paths.companyDashboard();
const profileFor = (s: Session) =>
  s.userType === 'lawyer'
    ? paths.lawyerProfile(s.userId)
    : s.userType === 'company'
      ? paths.companyProfile(s.userId)
      : null;

/** The signed-in user's picture for the bar, from the same query cache the profile pages save through. */
function useProfileImage(session: Session | null) {
  const id = session && session.userType !== 'admin' ? session.userId : null;
  const [image, setImage] = useState<{ id: string; url: string | null } | null>(null);
  useEffect(() => {
    if (!id) return;
    let stop: (() => void) | undefined;
    let live = true;
    // Loaded here rather than imported: the first page of a visitor ships no query library.
    void import('@/app/data-provider').then(({ watchProfilePicture }) => {
      if (live) stop = watchProfilePicture(id, (url) => setImage({ id, url }));
    });
    return () => {
      live = false;
      stop?.();
    };
  }, [id]);
  return image && image.id === id ? image.url : null;
}

/**
 * How many lines the cart holds: a visitor's reservations (this browser), a company's server cart
 * (the cart page's query, loaded after the first paint). Null for the other roles.
 */
function useCartCount(session: Session | null, pathname: string) {
  const company = session?.userType === 'company';
  const [reserved, setReserved] = useState(0);
  const [server, setServer] = useState(0);
  useEffect(() => {
    if (session) return;
    const read = () => setReserved(readReservedItems().length);
    read();
    window.addEventListener('storage', read);
    window.addEventListener(RESERVED_CHANGED, read);
    return () => {
      window.removeEventListener('storage', read);
      window.removeEventListener(RESERVED_CHANGED, read);
    };
    // Read again on each page: reserving happens on the product page, then the visitor moves on.
  }, [session, pathname]);
  useEffect(() => {
    if (!company) return;
    let stop: (() => void) | undefined;
    let live = true;
    void import('@/app/data-provider').then(({ watchCartCount }) => {
      if (live) stop = watchCartCount(setServer);
    });
    return () => {
      live = false;
      stop?.();
    };
  }, [company]);
  if (!session) return reserved;
  return company ? server : null;
}

function CartLink({ count, className = '' }: { count: number; className?: string }) {
  const label = `Cart, ${count} ${count === 1 ? 'item' : 'items'}`;
  return (
    <Link
      to={paths.cart()}
      className={`relative flex size-11 items-center justify-center rounded-md hover:bg-black/5 ${className}`}
      aria-label={label}
    >
      <ShoppingCart className="size-5" aria-hidden />
      {count > 0 && (
        <span
          aria-hidden
          className="absolute top-0.5 right-0.5 flex min-w-5 items-center justify-center rounded-full bg-brand px-1 text-xs leading-5 font-bold text-white"
        >
          {count > 99 ? '99+' : count}
        </span>
      )}
    </Link>
  );
}

/** On phones the floating chat button sat on Next, Clear Cart and the expertise buttons: it lives in the bar there. */
function ChatLink() {
  const cfg = usePublicConfig();
  return (
    <a
      href={whatsappLink(cfg.supportPhone, 'Hello LegalMarket, I need help.')}
      target="_blank"
      rel="noopener noreferrer"
      aria-label="Chat with LegalMarket support on WhatsApp"
      className="flex size-11 items-center justify-center rounded-md text-emerald-700 hover:bg-black/5 md:hidden"
    >
      <MessageCircle className="size-5" aria-hidden />
    </a>
  );
}

/**
 * The Sign Up menu button (WAI-ARIA menu button): opening it focuses the first choice, the arrow keys,
 * Home and End move between choices, Escape closes it and gives focus back to the button, Tab or a
 * click elsewhere closes it.
 */
function SignupMenu() {
  const [open, setOpen] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const { pathname } = useLocation();
  useEffect(() => setOpen(false), [pathname]);
  useEffect(() => {
    if (!open) return;
    box.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
    const close = (e: MouseEvent) => {
      if (!box.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('click', close);
    return () => document.removeEventListener('click', close);
  }, [open]);
  const onMenuKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const items = [...(box.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
    const at = items.indexOf(document.activeElement as HTMLElement);
    const to =
      e.key === 'ArrowDown'
        ? (at + 1) % items.length
        : e.key === 'ArrowUp'
          ? (at - 1 + items.length) % items.length
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? items.length - 1
              : -1;
    if (to >= 0) {
      e.preventDefault();
      items[to]?.focus();
    } else if (e.key === 'Escape') {
      e.preventDefault();
      setOpen(false);
      button.current?.focus();
    } else if (e.key === 'Tab') {
      setOpen(false);
    }
  };
  return (
    <div className="relative" ref={box}>
      <button
        ref={button}
        type="button"
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown') {
            e.preventDefault();
            setOpen(true);
          }
        }}
        className="flex min-h-11 items-center gap-1 rounded-md bg-brand px-4 text-sm font-semibold text-white hover:bg-brand-dark"
      >
        Sign Up <ChevronDown className="size-4" aria-hidden />
      </button>
      {open && (
        <div
          role="menu"
          aria-label="Sign up"
          onKeyDown={onMenuKey}
          className="absolute right-0 z-50 mt-2 w-48 rounded-md border border-slate-200 bg-white py-1 shadow-lg"
        >
          <Link
            role="menuitem"
            tabIndex={-1}
            to={paths.signupCompany()}
            className="flex min-h-11 items-center px-4 text-sm text-ink hover:bg-slate-50 focus:bg-slate-100"
          >
            As a Company
          </Link>
          <Link
            role="menuitem"
            tabIndex={-1}
            to={paths.signupLawyer()}
            className="flex min-h-11 items-center px-4 text-sm text-ink hover:bg-slate-50 focus:bg-slate-100"
          >
            As a Lawyer
          </Link>
        </div>
      )}
    </div>
  );
}

export function Navbar() {
  const session = useSession();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const [menuOpen, setMenuOpen] = useState(false);
  const [contactOpen, setContactOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  const authStyle = isAuthPage(pathname);
  const image = useProfileImage(session);
  const cartCount = useCartCount(session, pathname);
  const showCart = cartCount !== null && !(authStyle && !session);

  useEffect(() => {
    setMenuOpen(false);
  }, [pathname]);
  useEffect(() => {
    if (!menuOpen) return;
    // Escape closes the phone menu and gives focus back to its button.
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented) return;
      setMenuOpen(false);
      menuButton.current?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [menuOpen]);

  // The server is asked before the session goes; on a slow line that takes a while, and a second tap
  // meanwhile would only send the request again.
  const [leaving, setLeaving] = useState(false);
  const logout = async () => {
    if (leaving) return;
    setLeaving(true);
    try {
      await api('/api/logout', { method: 'POST', allowUnauthorized: true });
    } catch {
      // The session is cleared locally whatever the server says.
    }
    clearSession();
    clearData();
    setLeaving(false);
    navigate(paths.homeAlias());
  };

  const item = 'flex min-h-11 items-center rounded-md px-3 text-sm font-medium hover:bg-black/5';
  const active = ({ isActive }: { isActive: boolean }) =>
    `${item} ${isActive ? 'text-brand underline underline-offset-4' : ''}`;

  const links = session ? (
    <>
      <NavLink className={active} to={paths.home()} end>
        Home
      </NavLink>
      <NavLink className={active} to={paths.about()}>
        About Us
      </NavLink>
      <NavLink className={active} to={dashboardFor(session)}>
        Dashboard
      </NavLink>
      {session.userType === 'lawyer' && (
        <NavLink className={active} to={paths.lawyerAvailableJobs(session.userId)}>
          Jobs
        </NavLink>
      )}
      {session.userType === 'admin' && (
        <NavLink className={active} to={paths.adminJobs()}>
          Jobs
        </NavLink>
      )}
      {session.userType !== 'lawyer' && (
        <NavLink className={active} to={paths.products()}>
          Products
        </NavLink>
      )}
      {session.userType === 'company' && (
        <NavLink className={active} to={paths.companyPlan()}>
          My plan
        </NavLink>
      )}
      <button type="button" className={item} onClick={() => setContactOpen(true)}>
        Contact
      </button>
    </>
  ) : (
    <>
      <NavLink className={active} to={paths.about()}>
        About Us
      </NavLink>
      <NavLink className={active} to={paths.products()}>
        Products
      </NavLink>
      <button type="button" className={item} onClick={() => setContactOpen(true)}>
        Contact
      </button>
    </>
  );

  const actions = session ? (
    <>
      {session.userType === 'company' && <CartLink count={cartCount ?? 0} className="hidden md:flex" />}
      {profileFor(session) && (
        <Link to={profileFor(session)!} aria-label="Your profile" className="flex size-11 items-center justify-center">
          {image ? (
            <img src={image} alt="" width={36} height={36} className="size-9 rounded-full object-cover" />
          ) : (
            <span className="flex size-9 items-center justify-center rounded-full bg-brand/10 text-brand">
              <UserRound className="size-5" aria-hidden />
            </span>
          )}
        </Link>
      )}
      <button
        type="button"
        onClick={logout}
        disabled={leaving}
        aria-busy={leaving || undefined}
        className="min-h-11 rounded-md border border-brand px-4 text-sm font-semibold text-brand hover:bg-brand/5 disabled:opacity-60"
      >
        {leaving ? 'Logging out...' : 'Log out'}
      </button>
    </>
  ) : authStyle ? null : (
    <>
      <CartLink count={cartCount ?? 0} className="hidden md:flex" />
      <Link
        to={paths.login()}
        className="flex min-h-11 items-center rounded-md px-4 text-sm font-semibold text-brand hover:bg-brand/5"
      >
        Log in
      </Link>
      <SignupMenu />
    </>
  );

  return (
    <header className={authStyle ? 'bg-brand text-white' : 'border-b border-slate-200 bg-white'}>
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2 focus:text-ink"
      >
        Skip to content
      </a>
      <div className="mx-auto flex max-w-6xl items-center justify-between gap-2 px-4 py-2">
        <Link to={paths.home()} className="flex min-h-11 items-center text-lg font-bold tracking-tight">
          Legal<span className={authStyle ? 'text-accent' : 'text-brand'}>Market</span>
        </Link>
        <nav aria-label="Main" className="hidden items-center gap-1 md:flex">
          {links}
        </nav>
        <div className="hidden items-center gap-2 md:flex">{actions}</div>
        {session && (
          <Suspense fallback={<span className="size-11" />}>
            <span className="ml-auto md:order-last md:ml-0">
              <NotificationBell />
            </span>
          </Suspense>
        )}
        <span className={`flex items-center md:hidden ${session ? '' : 'ml-auto'}`}>
          <ChatLink />
          {showCart && <CartLink count={cartCount ?? 0} />}
        </span>
        <button
          ref={menuButton}
          type="button"
          className="flex size-11 items-center justify-center rounded-md md:hidden"
          aria-label={menuOpen ? 'Close menu' : 'Open menu'}
          aria-expanded={menuOpen}
          aria-controls="mobile-menu"
          onClick={() => setMenuOpen((o) => !o)}
        >
          {menuOpen ? <X className="size-6" aria-hidden /> : <Menu className="size-6" aria-hidden />}
        </button>
      </div>
      {menuOpen && (
        <div
          id="mobile-menu"
          className={`border-t px-4 pb-4 md:hidden ${authStyle ? 'border-white/20' : 'border-slate-200'}`}
        >
          <nav aria-label="Main" className="flex flex-col">
            {links}
          </nav>
          <div className="mt-2 flex flex-wrap items-center gap-2">{actions}</div>
        </div>
      )}
      <ContactPopup open={contactOpen} onClose={() => setContactOpen(false)} />
    </header>
  );
}
