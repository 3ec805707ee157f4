import { useCallback, useEffect, useRef, useState } from 'react';
import type { FieldValues, Path, PathValue, UseFormReturn } from 'react-hook-form';
import { randomUuid } from './random-id';
import { DRAFT_PREFIX } from './session';
import { useSession } from './use-session';

/**
 * Drafts (decision 2226): what a signed-in user types into a long text, kept in localStorage under
 * `draft:<userId>:<name>` while it is typed, so a reload, a tab the phone dropped or a dialog closed by
 * a stray tap loses nothing. The key holds the user id, so another account never reads it; a successful
 * send drops its own draft, logging out drops them all (lib/session.ts), and so does a sign-in as
 * another account (dropDraftsOfOthers). With no one signed in nothing is kept.
 */

const storageKey = (userId: string, name: string) => `${DRAFT_PREFIX}${userId}:${name}`;

function read(key: string): unknown {
  try {
    const raw = localStorage.getItem(key);
    return raw === null ? undefined : JSON.parse(raw);
  } catch {
    return undefined;
  }
}

function write(key: string, value: unknown, empty: boolean) {
  try {
    if (empty) localStorage.removeItem(key);
    else localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Storage full or refused (private mode): the form still works, only a reload forgets it.
  }
}

/** The storage key of the signed-in user's draft `name`; null with no one signed in or no name yet. */
function useDraftKey(name: string | null): string | null {
  const userId = useSession()?.userId;
  return userId && name ? storageKey(userId, name) : null;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** A kept value of the same shape as `initial` (a string, or a list), else `initial`. */
function kept<T>(key: string | null, initial: T): T {
  const value = key ? read(key) : undefined;
  return typeof value === typeof initial && Array.isArray(value) === Array.isArray(initial) ? (value as T) : initial;
}

/**
 * State kept as the draft `name`: like useState(initial), starting from what was typed before a reload.
 * Setting it back to `initial` (or `clear`, after a successful send) drops the draft.
 */
export function useDraft<T>(name: string | null, initial: T): [T, (next: T | ((old: T) => T)) => void, () => void] {
  const key = useDraftKey(name);
  // The first `initial` stands: a literal is a new object on each render.
  const [start] = useState(initial);
  const [state, setState] = useState(() => ({ key, value: kept(key, start) }));
  let current = state;
  if (state.key !== key) {
    // Another draft (another job, or the session read once the page took over the server's markup).
    current = { key, value: kept(key, start) };
    setState(current);
  }
  useEffect(() => {
    if (current.key) write(current.key, current.value, same(current.value, start));
  }, [current, start]);
  const set = useCallback(
    (next: T | ((old: T) => T)) =>
      setState((s) => ({ key, value: typeof next === 'function' ? (next as (old: T) => T)(s.value) : next })),
    [key],
  );
  const clear = useCallback(() => {
    // At once: a dialog closed in the same breath moves the hook to no key before any effect runs.
    if (key) write(key, null, true);
    setState({ key, value: start });
  }, [key, start]);
  return [current.value, set, clear];
}

/**
 * A drafted upload older than this is dropped when the draft is read back: the server sweeps documents
 * nobody attached a week after their upload (decision 2360), and a send naming one would be refused.
 * A day short of the week, so a file kept now is still there when the form is sent.
 */
export const DRAFT_FILE_MAX_AGE_MS = 6 * 86_400_000;
/** Whether a drafted file uploaded at `uploadedAt` (ms) is past DRAFT_FILE_MAX_AGE_MS; unknown (kept before it was noted): no. */
const staleUpload = (uploadedAt: unknown) =>
  typeof uploadedAt === 'number' && Date.now() - uploadedAt > DRAFT_FILE_MAX_AGE_MS;

/** What is said of drafted files dropped as too old, each named. */
export function staleFilesMessage(names: readonly string[]): string {
  const quoted = names.map((n) => `“${n}”`);
  const list = quoted.length > 1 ? `${quoted.slice(0, -1).join(', ')} and ${quoted.at(-1)}` : quoted[0];
  return `${list} ${names.length > 1 ? 'were' : 'was'} uploaded more than 6 days ago and is no longer kept with this draft. Please upload ${names.length > 1 ? 'them' : 'it'} again.`;
}

/** A file a draft keeps: its name, its address and when it was uploaded (ms; absent in older drafts). */
export interface DraftedFile {
  fileName: string;
  uploadedAt?: number;
}

/**
 * The draft `name` of a list of uploaded files (useDraft), less those uploaded more than
 * DRAFT_FILE_MAX_AGE_MS ago: they go from the draft, and their names are answered as `dropped` for the
 * page to say so (staleFilesMessage).
 */
export function useFilesDraft<F extends DraftedFile>(
  name: string | null,
): [F[], (next: F[] | ((old: F[]) => F[])) => void, () => void, string[]] {
  const [files, setFiles, clear] = useDraft<F[]>(name, []);
  const [dropped, setDropped] = useState<string[]>([]);
  const fresh = files.filter((f) => !staleUpload(f.uploadedAt));
  const staleNames = files.filter((f) => staleUpload(f.uploadedAt)).map((f) => f.fileName);
  const staleKey = staleNames.join('\n');
  useEffect(() => {
    if (!staleKey) return;
    setDropped(staleKey.split('\n'));
    setFiles((l) => l.filter((f) => !staleUpload(f.uploadedAt)));
  }, [staleKey, setFiles]);
  return [fresh, setFiles, clear, dropped];
}

/**
 * Keeps the text fields `fields` of a react-hook-form form as the draft `name` (an attached document's
 * `file` and `fileName` too: its upload may have taken minutes): once the form is shown
 * (after hydration, so the server's markup and the first render agree) what was kept is put back over
 * the defaults, and each change the user makes is kept. Returns `clear`, for after a successful send or
 * a Cancel.
 */
export function useFormDraft<T extends FieldValues>(
  name: string | null,
  form: Pick<UseFormReturn<T>, 'watch' | 'getValues' | 'setValue'>,
  fields: readonly Path<T>[],
  onStaleFile?: (fileName: string) => void,
): () => void {
  const key = useDraftKey(name);
  const { watch, getValues, setValue } = form;
  const list = fields.join('\n');
  const staleRef = useRef(onStaleFile);
  staleRef.current = onStaleFile;
  useEffect(() => {
    if (!key) return;
    const names = list.split('\n') as Path<T>[];
    let saved = read(key) as Record<string, unknown> | undefined;
    // A document (`file`, its name `fileName`) is kept with the time it was uploaded: one past
    // DRAFT_FILE_MAX_AGE_MS is not put back, and the page says which (the server has swept it or will).
    let uploadedAt = saved && typeof saved === 'object' ? saved.fileUploadedAt : undefined;
    if (saved && typeof saved === 'object' && saved.file && staleUpload(uploadedAt)) {
      staleRef.current?.(typeof saved.fileName === 'string' && saved.fileName ? saved.fileName : 'Document');
      const { file: _file, fileName: _name, fileUploadedAt: _at, ...rest } = saved;
      saved = rest;
      uploadedAt = undefined;
      write(
        key,
        rest,
        names.every((f) => !rest[f]),
      );
    }
    if (saved && typeof saved === 'object')
      for (const f of names) {
        const v = saved[f];
        // An empty kept value over an unset one (no document attached) puts nothing back: the values,
        // and so a send's key, stay as they were.
        if (typeof v === 'string' && v !== (getValues(f) ?? ''))
          setValue(f, v as PathValue<T, Path<T>>, { shouldDirty: true });
      }
    const sub = watch((_values, { name: changed }) => {
      // Only a field's change is kept: a reset after sending (which names no field) is not.
      if (!changed || !(names as string[]).includes(changed)) return;
      const draft: Record<string, unknown> = Object.fromEntries(names.map((f) => [f, String(getValues(f) ?? '')]));
      // The document field changes when an upload ends (or on Remove): that is its upload time.
      if (changed === 'file') uploadedAt = draft.file ? Date.now() : undefined;
      if (draft.file && typeof uploadedAt === 'number') draft.fileUploadedAt = uploadedAt;
      write(
        key,
        draft,
        names.every((f) => !draft[f]),
      );
    });
    return () => sub.unsubscribe();
  }, [key, list, watch, getValues, setValue]);
  return useCallback(() => {
    if (key) write(key, null, true);
  }, [key]);
}

/** How long a send's key stands for the same values: a retry after a lost answer comes within minutes. */
export const SEND_KEY_MS = 15 * 60_000;

/**
 * The key of a send the API takes once per key (decisions 1600, 2191, 2240): `keyFor(values)` answers
 * the key the same values were last sent with (a double tap, a retry after a lost answer, even after a
 * reload, as the key is kept as the draft `name`), and a new key for other values or once SEND_KEY_MS
 * passed (the same values sent days later are new work, not a retry). `done` drops it once the send
 * succeeded, so the same values sent later are a new request.
 */
export function useSendKey(name: string | null) {
  const key = useDraftKey(name);
  // In memory too: with storage refused (private mode) a double tap still goes under one key.
  const last = useRef<unknown>(undefined);
  const keyFor = useCallback(
    (values: unknown) => {
      const sent = JSON.stringify(values);
      const kept = last.current ?? (key ? read(key) : undefined);
      if (
        Array.isArray(kept) &&
        typeof kept[0] === 'string' &&
        kept[1] === sent &&
        typeof kept[2] === 'number' &&
        Date.now() - kept[2] < SEND_KEY_MS
      ) {
        // Each retry keeps it standing: the window runs from the last send.
        const again = [kept[0], sent, Date.now()];
        last.current = again;
        if (key) write(key, again, false);
        return kept[0];
      }
      const next = [randomUuid(), sent, Date.now()];
      last.current = next;
      if (key) write(key, next, false);
      return next[0] as string;
    },
    [key],
  );
  const done = useCallback(() => {
    last.current = undefined;
    if (key) write(key, null, true);
  }, [key]);
  return { keyFor, done };
}

/** At a sign-in: drafts left by another account (whose session the server ended) go from this browser. */
export function dropDraftsOfOthers(userId: string) {
  const own = storageKey(userId, '');
  for (let i = localStorage.length - 1; i >= 0; i--) {
    const k = localStorage.key(i);
    if (k?.startsWith(DRAFT_PREFIX) && !k.startsWith(own)) localStorage.removeItem(k);
  }
}
