import { useCallback, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { NOTIFICATION_READ_IDS_MAX } from '@legalmarket/contracts/constants';
import type { NotificationsResponse, ReadNotificationsRequest } from '@legalmarket/contracts/job-lifecycle';
import { Button } from '@/components/button';
import { EmptyState, ErrorState, Loading } from '@/components/feedback';
import { api, getErrorMessage } from '@/lib/http';
import { paths } from '@/lib/paths';

type Item = NotificationsResponse['notifications'][number];

const when = (iso: string) =>
  new Date(iso).toLocaleString('en-NG', {
    day: 'numeric',
    month: 'short',
    hour: 'numeric',
    minute: '2-digit',
    timeZone: 'Africa/Lagos',
  });

/** Tells the bell to ask again. */
const announce = () => window.dispatchEvent(new Event('notifications-read'));

/**
 * /notifications: every role's notification centre, newest first, each entry linking to its job (or, for
 * a lawyer the job was passed away from, to their projects).
 */
export default function NotificationsPage() {
  const [items, setItems] = useState<Item[] | null>(null);
  const [unread, setUnread] = useState(0);
  const [more, setMore] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Mark as read (and Mark all as read) leaves once it has worked: focus goes to what stays, the entry's
  // link or the heading, rather than to the page's top.
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [focusAfter, setFocusAfter] = useState<{ id: string | null } | null>(null);
  useEffect(() => {
    if (!focusAfter) return;
    const link = focusAfter.id ? document.getElementById(`notification-${focusAfter.id}`) : null;
    (link ?? headingRef.current)?.focus();
  }, [focusAfter]);

  // "Show older" is busy while its page is on its way: on a slow line a second tap asked for the same
  // page again and listed it twice.
  const [loadingOlder, setLoadingOlder] = useState(false);
  // A failed "Show older" is said beside its button, at the list's end where the tap was: at the page's
  // top, on a phone, it was off screen and the button only stopped turning.
  const [olderError, setOlderError] = useState<string | null>(null);
  // The same for one entry's Mark as read: said under that entry, not at the page's top.
  const [entryError, setEntryError] = useState<{ id: string; text: string } | null>(null);
  const load = useCallback(async (before?: string) => {
    setError(null);
    setOlderError(null);
    if (before) setLoadingOlder(true);
    try {
      const r = await api<NotificationsResponse>('/api/notifications', { query: { before } });
      setItems((old) => {
        if (!before || !old) return r.notifications;
        const shown = new Set(old.map((n) => n._id));
        return [...old, ...r.notifications.filter((n) => !shown.has(n._id))];
      });
      setUnread(r.unread);
      setMore(r.hasMore);
    } catch (err) {
      if (before) setOlderError(getErrorMessage(err));
      else setError(getErrorMessage(err));
    } finally {
      setLoadingOlder(false);
    }
  }, []);
  useEffect(() => {
    document.title = 'Notifications · LegalMarket';
    void load();
  }, [load]);

  async function read(body: ReadNotificationsRequest, focusOn?: { id: string | null }) {
    setBusy(true);
    setEntryError(null);
    try {
      const r = await api<{ unread: number }>('/api/notifications/read', { method: 'POST', body });
      const now = new Date().toISOString();
      setItems(
        (old) =>
          old?.map((n) =>
            ('all' in body ? !body.upTo || Number(n._id) <= Number(body.upTo) : body.ids.includes(n._id))
              ? { ...n, readAt: n.readAt ?? now }
              : n,
          ) ?? null,
      );
      setUnread(r.unread);
      if (focusOn) setFocusAfter(focusOn);
      announce();
    } catch (err) {
      if (focusOn?.id) setEntryError({ id: focusOn.id, text: getErrorMessage(err) });
      else setError(getErrorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  if (error && !items) return <ErrorState message={error} onRetry={() => void load()} />;
  if (!items) return <Loading label="Loading your notifications..." />;
  // The unread entries shown, not an id range: ids are not in commit order (decision 2279).
  const shownUnread = items.filter((n) => !n.readAt).map((n) => n._id);
  return (
    <div className="mx-auto w-full max-w-2xl px-4 py-6">
      <div className="mb-4 flex flex-wrap items-center justify-between gap-2">
        <h1 ref={headingRef} tabIndex={-1} className="heading-title">
          Notifications
        </h1>
        {/* Those shown: one that arrived since, or is on a page not loaded, stays unread (decision 2279). */}
        {shownUnread.length > 0 && (
          <Button
            variant="secondary"
            onClick={() => void read({ ids: shownUnread.slice(0, NOTIFICATION_READ_IDS_MAX) }, { id: null })}
            loading={busy}
          >
            Mark all as read
          </Button>
        )}
      </div>
      <p className="sr-only" aria-live="polite">
        {unread} unread
      </p>
      {error && (
        <p role="alert" className="mb-2 text-sm text-red-700">
          {error}
        </p>
      )}
      {items.length === 0 ? (
        <EmptyState>No notifications yet. You will find here every step of your jobs.</EmptyState>
      ) : (
        <ul className="flex flex-col gap-2">
          {items.map((n) => (
            <li
              key={n._id}
              className={`flex flex-wrap items-center justify-between gap-2 rounded-lg border px-3 py-2 ${n.readAt ? 'border-slate-200 bg-white' : 'border-accent bg-accent/10'}`}
            >
              <Link
                id={`notification-${n._id}`}
                // A job passed away from this lawyer no longer opens for them: their projects do (decision 2332).
                to={n.jobOpens === false ? paths.lawyerDashboard() : paths.job(n.jobId)}
                onClick={() => !n.readAt && void read({ ids: [n._id] })}
                className="min-w-0 flex-1 wrap-anywhere text-sm"
              >
                {!n.readAt && <span className="sr-only">Unread: </span>}
                <span className={n.readAt ? '' : 'font-semibold'}>{n.text}</span>
                {n.jobOpens === false && (
                  <span className="block text-xs text-slate-600">
                    This job is no longer yours: the link opens your projects.
                  </span>
                )}
                <span className="block text-xs text-slate-600">{when(n.createdAt)}</span>
              </Link>
              {!n.readAt && (
                <button
                  type="button"
                  className="min-h-11 shrink-0 px-2 text-sm text-brand underline"
                  onClick={() => void read({ ids: [n._id] }, { id: n._id })}
                  disabled={busy}
                  // One per unread entry: its description is the entry it marks.
                  aria-describedby={`notification-${n._id}`}
                >
                  Mark as read
                </button>
              )}
              {entryError?.id === n._id && (
                <p role="alert" className="basis-full text-sm text-red-700">
                  Not marked as read. {entryError.text}
                </p>
              )}
            </li>
          ))}
        </ul>
      )}
      {more && (
        <div className="mt-4 text-center">
          {olderError && (
            <p role="alert" className="mb-2 text-sm text-red-700">
              Older notifications could not be loaded. {olderError}
            </p>
          )}
          <Button variant="secondary" loading={loadingOlder} onClick={() => void load(items.at(-1)?._id)}>
            Show older
          </Button>
        </div>
      )}
    </div>
  );
}
