import { useState, type ReactNode } from 'react';
import { FileText, Loader2 } from 'lucide-react';
import { api, getErrorMessage } from '@/lib/http';
import { BreakableText } from './breakable-text';

/** The storage key of a file of this site (`/uploads/<key>` or an absolute URL ending so), else null. */
function uploadKeyOf(url: string): string | null {
  const m = /^(?:https?:\/\/[^/]+)?\/uploads\/([A-Za-z0-9._-]+)$/.exec(url.trim());
  return m ? m[1] : null;
}

/** Asks the API for a short-lived link to a file the signed-in user may read (docs/decisions/0101). */
async function openUploadedFile(url: string) {
  const key = uploadKeyOf(url);
  if (!key) {
    window.open(url, '_blank', 'noopener,noreferrer');
    return;
  }
  const res = await api<{ data: { url: string } }>(`/api/files/${encodeURIComponent(key)}/link`);
  // Documents answer Content-Disposition: attachment, so the browser downloads and stays on the page.
  window.location.assign(res.data.url);
}

/**
 * A link to an uploaded document (job and cart files). Documents are confidential, so a plain
 * <a href> cannot carry the bearer token: clicking asks for a signed link first, then downloads.
 */
export function DocumentLink({
  url,
  name,
  className = '',
  children,
}: {
  url: string;
  name?: string | null;
  className?: string;
  children?: ReactNode;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const label = children ?? name ?? 'Download file';
  return (
    <span className="inline-flex flex-col">
      <a
        href={url}
        className={`inline-flex items-center gap-1 font-medium text-brand underline underline-offset-2 hover:text-brand-dark ${className}`}
        aria-busy={busy || undefined}
        onClick={async (e) => {
          if (e.metaKey || e.ctrlKey || e.shiftKey) return;
          e.preventDefault();
          // A second tap while the signed link is on its way (a slow line) would ask for another and
          // download the document twice.
          if (busy) return;
          setBusy(true);
          setError(null);
          try {
            await openUploadedFile(url);
          } catch (err) {
            setError(getErrorMessage(err));
          } finally {
            setBusy(false);
          }
        }}
      >
        {busy ? <Loader2 aria-hidden className="size-4 animate-spin" /> : <FileText aria-hidden className="size-4" />}
        {typeof label === 'string' ? <BreakableText text={label} /> : <span>{label}</span>}
      </a>
      {error && (
        <span role="alert" className="text-xs text-red-700">
          {error}
        </span>
      )}
    </span>
  );
}
