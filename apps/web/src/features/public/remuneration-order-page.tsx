import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { paths } from '@/lib/paths';
import { useSession } from '@/lib/use-session';
import { ErrorState, Loading } from '@/components/feedback';

const URL = '/api/remuneration-order';

type State = 'checking' | 'available' | 'missing' | 'failed';

/** Embeds the Legal Practitioners Remuneration Order 2023 PDF, or says clearly that it is not uploaded yet. */
export default function RemunerationOrderPage() {
  const session = useSession();
  const [state, setState] = useState<State>('checking');
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let live = true;
    fetch(URL, { method: 'HEAD' })
      // Only a 404 means "not uploaded"; a failed check is not reported as a missing order.
      .then((r) => live && setState(r.ok ? 'available' : r.status === 404 ? 'missing' : 'failed'))
      .catch(() => live && setState('failed'));
    return () => {
      live = false;
    };
  }, [attempt]);
  return (
    <section className="mx-auto max-w-5xl px-4 py-10">
      <h1 className="heading-title">Legal Practitioners Remuneration Order 2023</h1>
      <p className="mt-2 text-slate-600">
        The order that sets the scale of fees Nigerian legal practitioners charge for their services.
      </p>
      {state === 'checking' ? (
        <Loading />
      ) : state === 'available' ? (
        <>
          <object
            data={URL}
            type="application/pdf"
            className="mt-6 h-[75vh] w-full rounded-lg border border-slate-200"
            aria-label="Legal Practitioners Remuneration Order 2023 (PDF)"
          >
            <p className="p-4">
              Your browser cannot show the PDF here.{' '}
              <a className="font-semibold text-brand underline" href={URL}>
                Open the Remuneration Order
              </a>
              .
            </p>
          </object>
          <a className="mt-3 inline-flex min-h-11 items-center font-semibold text-brand hover:underline" href={URL}>
            Open the PDF in a new view
          </a>
        </>
      ) : state === 'failed' ? (
        <div className="mt-6">
          <ErrorState
            message="We could not load the Remuneration Order. Check your connection and try again."
            onRetry={() => {
              setState('checking');
              setAttempt((n) => n + 1);
            }}
          />
        </div>
      ) : (
        <div role="status" className="mt-6 rounded-lg border border-amber-200 bg-amber-50 p-4 text-amber-900">
          <p className="font-semibold">The Remuneration Order has not been uploaded yet.</p>
          {session?.userType === 'admin' ? (
            <p className="mt-1">
              <Link
                to={paths.adminRemunerationOrder()}
                className="inline-flex min-h-11 items-center font-semibold underline underline-offset-2"
              >
                Upload the PDF now
              </Link>
            </p>
          ) : (
            <p className="mt-1">Please check back soon, or ask us for a copy through Contact.</p>
          )}
        </div>
      )}
    </section>
  );
}
