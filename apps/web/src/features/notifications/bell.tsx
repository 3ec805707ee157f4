import { useEffect, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { Bell } from 'lucide-react';
import { api } from '@/lib/http';
import { paths } from '@/lib/paths';

const POLL_MS = 30_000;

/** The navbar's bell: the unread count, asked every 30 s while visible and on focus and on each page change. */
export default function NotificationBell() {
  const [unread, setUnread] = useState(0);
  const { pathname } = useLocation();
  useEffect(() => {
    let live = true;
    const ask = () => {
      if (document.visibilityState !== 'visible') return;
      api<{ unread: number }>('/api/notifications/unread')
        .then((r) => live && setUnread(r.unread))
        .catch(() => undefined);
    };
    ask();
    const timer = setInterval(ask, POLL_MS);
    window.addEventListener('focus', ask);
    window.addEventListener('notifications-read', ask);
    return () => {
      live = false;
      clearInterval(timer);
      window.removeEventListener('focus', ask);
      window.removeEventListener('notifications-read', ask);
    };
  }, [pathname]);
  const label = unread ? `Notifications, ${unread} unread` : 'Notifications';
  return (
    <Link
      to={paths.notifications()}
      aria-label={label}
      title={label}
      className="relative flex size-11 items-center justify-center rounded-md hover:bg-black/5"
    >
      <Bell className="size-5" aria-hidden />
      {unread > 0 && (
        <span
          aria-hidden
          className="absolute top-1 right-1 min-w-5 rounded-full bg-red-700 px-1 text-center text-xs leading-5 font-bold text-white"
        >
          {unread > 99 ? '99+' : unread}
        </span>
      )}
    </Link>
  );
}
