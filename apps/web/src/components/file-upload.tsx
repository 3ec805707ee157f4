import { useEffect, useId, useRef, useState } from 'react';
import { Paperclip, X } from 'lucide-react';
import type { UploadResponse } from '@legalmarket/contracts/catalogue';
import { UPLOAD_ACCEPT, type UploadKind } from '@legalmarket/contracts/constants';
import { staleFilesMessage } from '@/lib/drafts';
import { fileProblem } from '@/lib/file-problem';
import { currentUploadLimits } from '@/lib/public-config';
import { getErrorMessage, isFinalRefusal, uploadWithProgress } from '@/lib/http';
import { DocumentLink } from './document-link';
import { BreakableText } from './breakable-text';

/** The original file name and its `/uploads/<key>` (the `file` of a cart item or job), as the upload answers. */
export type UploadedFile = Pick<UploadResponse['data'], 'fileName' | 'url'> & {
  /** When the upload ended (ms): a draft drops a file before the server sweeps it unattached. */
  uploadedAt?: number;
};

/**
 * Says which drafted documents were dropped as too old to send (useFilesDraft, useFormDraft). Always
 * rendered, empty at first: a live region announces what is put in it, not what it was born with.
 */
export function StaleFilesNote({ names }: { names: readonly string[] }) {
  return (
    // aria-live without role="status": the form's own status (Added to cart) keeps that role alone.
    <p aria-live="polite" className={names.length ? 'text-sm text-amber-800' : undefined}>
      {names.length ? staleFilesMessage(names) : null}
    </p>
  );
}

interface FileUploadProps {
  label: string;
  /** image: PNG, JPEG, WebP (public); document: PDF, DOC, DOCX or an image (confidential). */
  kind: UploadKind;
  value: UploadedFile | null;
  onChange: (file: UploadedFile | null) => void;
  /** Told while a file is on its way, so the form can wait before sending. */
  onBusyChange?: (busy: boolean) => void;
  hint?: string;
  error?: string;
  disabled?: boolean;
}

/**
 * Picks a file and uploads it to POST /api/uploads at once, with a progress bar; then shows the file
 * name as a link and a Remove button, so the user can take it back before sending the form.
 */
export function FileUpload({ label, kind, value, onChange, onBusyChange, hint, error, disabled }: FileUploadProps) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const abort = useRef<AbortController | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [pendingName, setPendingName] = useState<string | null>(null);
  /** A file whose upload failed on the way (connection, busy server): sent again without picking it again. */
  const [retryFile, setRetryFile] = useState<File | null>(null);
  /** How the last upload ended, for screen readers (a failure is the field's alert). */
  const [ended, setEnded] = useState('');

  useEffect(() => () => abort.current?.abort(), []);

  async function upload(file: File) {
    setRetryFile(null);
    const problem = fileProblem(file, kind, currentUploadLimits());
    if (problem) {
      setFailure(`${file.name}: ${problem}`);
      if (input.current) input.current.value = '';
      return;
    }
    setFailure(null);
    setEnded('');
    setPendingName(file.name);
    setProgress(0);
    onBusyChange?.(true);
    const ctrl = new AbortController();
    abort.current = ctrl;
    const form = new FormData();
    form.append('kind', kind);
    form.append('file', file);
    try {
      const res = await uploadWithProgress<UploadResponse>(`/api/uploads?kind=${kind}`, form, setProgress, {
        signal: ctrl.signal,
      });
      onChange({ fileName: res.data.fileName, url: res.data.url, uploadedAt: Date.now() });
      setEnded('Upload complete');
    } catch (err) {
      if ((err as Error).name === 'AbortError') setEnded('Upload cancelled');
      else {
        setFailure(getErrorMessage(err));
        // A refusal of the file itself would only come again; a lost connection may not.
        if (!isFinalRefusal(err)) setRetryFile(file);
      }
    } finally {
      abort.current = null;
      setProgress(null);
      setPendingName(null);
      onBusyChange?.(false);
      if (input.current) input.current.value = '';
    }
  }

  const shownError = failure ?? error;
  const describedBy = [hint ? `${id}-hint` : '', shownError ? `${id}-error` : ''].join(' ').trim() || undefined;
  const uploading = progress !== null;

  return (
    <div>
      <span className="mb-1 block text-sm font-medium text-slate-800" id={`${id}-label`}>
        {label}
      </span>
      {value ? (
        <div className="flex flex-wrap items-center gap-2 rounded-md border border-slate-300 bg-slate-50 px-3 py-2">
          {kind === 'image' ? (
            <a
              href={value.url}
              target="_blank"
              rel="noreferrer"
              className="font-medium text-brand underline underline-offset-2"
            >
              <BreakableText text={value.fileName} />
            </a>
          ) : (
            <DocumentLink url={value.url} name={value.fileName} />
          )}
          <button
            type="button"
            onClick={() => {
              onChange(null);
              requestAnimationFrame(() => input.current?.focus());
            }}
            disabled={disabled}
            aria-label={`Remove ${value.fileName}`}
            className="ml-auto inline-flex min-h-11 items-center gap-1 rounded-md px-3 text-sm font-semibold text-red-700 hover:bg-red-50"
          >
            <X aria-hidden className="size-4" /> Remove
          </button>
        </div>
      ) : (
        <div className="flex flex-wrap items-center gap-2">
          <label
            htmlFor={`${id}-input`}
            className={`inline-flex min-h-11 cursor-pointer items-center gap-2 rounded-md border border-brand bg-white px-4 py-2 text-sm font-semibold text-brand hover:bg-brand/5 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-accent ${disabled || uploading ? 'pointer-events-none opacity-50' : ''}`}
          >
            <Paperclip aria-hidden className="size-4" />
            {uploading ? 'Uploading...' : 'Choose a file'}
            <input
              ref={input}
              id={`${id}-input`}
              type="file"
              accept={UPLOAD_ACCEPT[kind]}
              className="sr-only"
              aria-labelledby={`${id}-label`}
              aria-describedby={describedBy}
              aria-invalid={shownError ? true : undefined}
              disabled={disabled || uploading}
              onChange={(e) => {
                const f = e.target.files?.[0];
                if (f) void upload(f);
              }}
            />
          </label>
          {retryFile && !uploading && (
            <button
              type="button"
              onClick={() => void upload(retryFile)}
              disabled={disabled}
              className="min-h-11 rounded-md px-3 text-sm font-semibold text-brand hover:bg-brand/5 disabled:opacity-50"
            >
              <BreakableText text={`Upload ${retryFile.name} again`} />
            </button>
          )}
          {uploading && (
            <button
              type="button"
              onClick={() => {
                abort.current?.abort();
                // The button goes with the upload: focus goes back to the picker, not to the page's top.
                requestAnimationFrame(() => input.current?.focus());
              }}
              className="min-h-11 rounded-md px-3 text-sm font-semibold text-slate-700 hover:bg-slate-100"
            >
              Cancel upload
            </button>
          )}
        </div>
      )}
      {uploading && (
        <div className="mt-2">
          <progress
            className="h-2 w-full overflow-hidden rounded [&::-moz-progress-bar]:bg-brand [&::-webkit-progress-bar]:bg-slate-200 [&::-webkit-progress-value]:bg-brand"
            max={100}
            value={Math.round((progress ?? 0) * 100)}
            aria-label={`Uploading ${pendingName ?? 'file'}`}
          />
          <p aria-hidden className="mt-1 text-xs text-slate-600">
            {pendingName}: {Math.round((progress ?? 0) * 100)}%
          </p>
        </div>
      )}
      {/* Told in quarters: a slow upload moves by 1% many times a minute, each of which a screen reader
          would read out. Always there, so the first words are read too. */}
      <p aria-live="polite" className="sr-only">
        {uploading ? `Uploading: ${Math.floor(Math.round((progress ?? 0) * 100) / 25) * 25}%` : ended}
      </p>
      {hint && (
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-500">
          {hint}
        </p>
      )}
      {shownError && (
        <p id={`${id}-error`} role="alert" className="mt-1 text-sm text-red-700">
          {shownError}
        </p>
      )}
    </div>
  );
}
