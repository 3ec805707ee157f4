import { useState, type ReactNode } from 'react';
import { FileDown, Loader2 } from 'lucide-react';
import { messages } from '@legalmarket/contracts/messages';
import { HttpError, TIMED_OUT_MESSAGE, getErrorMessage, statusMessage } from '@/lib/http';
import { getSession } from '@/lib/session';

/** A receipt is tens of kilobytes: a minute covers it on 2G. */
const PDF_TIMEOUT_MS = 60_000;

/** Fetches a PDF of our API with the bearer token and saves it under `filename`. */
export async function downloadPdf(path: string, filename: string) {
  const session = getSession();
  // A dead mobile line never fails, it hangs: give up, as api() does (decision 2306), the file included.
  let timer: ReturnType<typeof setTimeout> | undefined;
  const gaveUp = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(TIMED_OUT_MESSAGE)), PDF_TIMEOUT_MS);
  });
  let res: Response;
  let blob: Blob | undefined;
  try {
    res = await Promise.race([
      fetch(path, { headers: session ? { authorization: `Bearer ${session.userToken}` } : {} }).catch(() => {
        // The network failed: the same words api() uses (spec section 8).
        throw new Error(messages.sessionTimeout);
      }),
      gaveUp,
    ]);
    if (res.ok) blob = await Promise.race([res.blob(), gaveUp]);
  } finally {
    clearTimeout(timer);
  }
  if (!res.ok || !blob) {
    const body = (await res.json().catch(() => null)) as { message?: string } | null;
    throw new HttpError(res.status, body?.message || statusMessage(res.status), body);
  }
  // The server names the file (receipt-<reference>.pdf); `filename` is only the fallback.
  const named = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1];
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = named ?? filename;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * A receipt or credit note. The API answers PDFs only to the signed-in owner or an admin, and a plain
 * link cannot send the bearer token, so this is a button that fetches the file and saves it.
 */
export function PdfDownload({
  path,
  filename,
  label,
  children,
}: {
  path: string;
  filename: string;
  /** What a screen reader says, e.g. "Receipt for LM-1700000000000-ab12". */
  label: string;
  children: ReactNode;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <span className="inline-flex flex-col">
      <button
        type="button"
        aria-label={label}
        aria-busy={busy || undefined}
        disabled={busy}
        className="inline-flex min-h-11 items-center gap-1 font-medium text-brand underline underline-offset-2 hover:text-brand-dark disabled:opacity-60"
        onClick={async () => {
          setBusy(true);
          setError(null);
          try {
            await downloadPdf(path, filename);
          } catch (err) {
            setError(getErrorMessage(err));
          } finally {
            setBusy(false);
          }
        }}
      >
        {busy ? <Loader2 aria-hidden className="size-4 animate-spin" /> : <FileDown aria-hidden className="size-4" />}
        {children}
      </button>
      {error && (
        <span role="alert" className="text-xs text-red-700">
          {error}
        </span>
      )}
    </span>
  );
}
