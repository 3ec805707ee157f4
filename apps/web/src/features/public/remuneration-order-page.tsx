import { useEffect, useState } from 'react';
import { Loading } from '@/components/feedback';

const URL = '/api/remuneration-order';

/** Embeds the Legal Practitioners Remuneration Order 2023 PDF, or says clearly that it is not uploaded yet. */
export default function RemunerationOrderPage() {
  const [available, setAvailable] = useState<boolean | null>(null);
  useEffect(() => {
    let live = true;
    fetch(URL, { method: 'HEAD' })
      .then((r) => live && setAvailable(r.ok))
      .catch(() => live && setAvailable(false));
    return () => {
      live = false;
    };
  }, []);
  return (
    <section className="mx-auto max-w-5xl px-4 py-10">
      <h1 className="text-2xl font-bold">Legal Practitioners Remuneration Order 2023</h1>
      <p className="mt-2 text-slate-600">
        The order that sets the scale of fees Nigerian legal practitioners charge for their services.
      </p>
      {available === null ? (
        <Loading />
      ) : available ? (
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
      ) : (
        <p role="status" className="mt-6 rounded-lg border border-amber-200 bg-amber-50 p-4 text-amber-900">
          The Remuneration Order has not been uploaded yet. Please check back soon or contact us for a copy.
        </p>
      )}
    </section>
  );
}
