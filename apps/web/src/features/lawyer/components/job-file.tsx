import { Lock } from 'lucide-react';
import { DocumentLink } from '@/components/document-link';
import { BreakableText } from '@/components/breakable-text';

/**
 * A job's file. The assigned lawyer (and admins) open it through a signed link; for an open job the
 * answer carries the file's name but not its key (docs/decisions/0101, 0301, 0860), so the name is
 * shown with a note that the file is shared once the job is assigned to the reader.
 */
export function JobFile({ url, name, readable }: { url: string | null; name: string | null; readable: boolean }) {
  if (!url && !name) return null;
  if (url && readable) return <DocumentLink url={url} name={name ?? 'Company file'} />;
  return (
    <span className="inline-flex items-center gap-1 text-sm text-slate-600">
      <Lock className="size-4" aria-hidden />
      <BreakableText text={name ?? 'Company file'} />
      <span>(shared with you once the job is assigned to you)</span>
    </span>
  );
}

/** Shown instead of the brief to a lawyer who is not verified yet (the server leaves it out). */
export function BriefWithheld() {
  return (
    <p className="mt-2 text-sm text-slate-600" role="note">
      The company&apos;s brief is shown to verified lawyers only. An admin verifies your account after checking your
      SCN.
    </p>
  );
}
