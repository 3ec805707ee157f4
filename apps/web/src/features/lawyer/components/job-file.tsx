import { Lock } from 'lucide-react';
import { DocumentLink } from '@/components/document-link';

/**
 * A job's file. The assigned lawyer (and admins) open it through a signed link; for an open job the file
 * is named but only shared once the job is assigned (docs/decisions/0101, 0301).
 */
export function JobFile({ url, name, readable }: { url: string | null; name: string | null; readable: boolean }) {
  if (!url) return null;
  if (readable) return <DocumentLink url={url} name={name ?? 'Company file'} />;
  return (
    <span className="inline-flex items-center gap-1 text-sm text-slate-600">
      <Lock className="size-4" aria-hidden />
      <span className="break-all">{name ?? 'Company file'}</span>
      <span>(shared with you once the job is assigned to you)</span>
    </span>
  );
}
