import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import { useMutationState, useQueryClient } from '@tanstack/react-query';
import { Clock, FileText, Send } from 'lucide-react';
import {
  JOB_PAGE_ACTIONS,
  MAX_EVENT_FILES,
  MAX_MESSAGE_LENGTH,
  MAX_MESSAGE_UNITS,
  characterCount,
  noteMissingMessage,
  noteTooLong,
  transitionOf,
  type JobAction,
  type JobEventResponse,
} from '@legalmarket/contracts/job-lifecycle';
import type { JobPageResponse } from '@legalmarket/contracts/jobs';
import { messages } from '@legalmarket/contracts/messages';
import { planMessages } from '@legalmarket/contracts/plans';
import { Button } from '@/components/button';
import { DocumentLink } from '@/components/document-link';
import { ErrorState, Loading, Naira } from '@/components/feedback';
import { FileUpload, StaleFilesNote, type UploadedFile } from '@/components/file-upload';
import { Modal } from '@/components/modal';
import { getErrorMessage } from '@/lib/http';
import { randomUuid } from '@/lib/random-id';
import { paths } from '@/lib/paths';
import { useDraft, useFilesDraft } from '@/lib/drafts';
import { useSession } from '@/lib/use-session';
import {
  jobActionKey,
  markJobRead,
  useEarlierEvents,
  useJobAction,
  useJobPage,
  useJobPolling,
  type JobActionSend,
} from './api';
import { STAGE_LABELS, eventWords, formatDay, formatWhen } from './words';
import { BreakableText } from '@/components/breakable-text';
import { JobLawyerReview } from '@/features/reviews/lawyer-reviews';
import { CompletePayee, shownPay, usePayee } from '@/features/admin/complete-payee';

/** Actions that cannot be taken back ask first. */
const CONFIRM: Partial<Record<JobAction, string>> = {
  accept: 'Accept the delivered work? The job will be completed and the lawyer paid. This cannot be undone.',
  complete: 'Mark this job as completed? This cannot be undone.',
  cancel: 'Cancel this job? The company and the lawyer are told, and nothing more can happen on it.',
};

/** Actions taken on the delivery shown: they name it, so a newer one is never taken unseen. */
const JUDGES_DELIVERY: readonly JobAction[] = ['accept', 'request_changes'];

/** The buttons beside the composer: the lifecycle's actions for this reader, the composer's note and files go with them. */
const BUTTON_ACTIONS = JOB_PAGE_ACTIONS.filter((a) => a !== 'message');

/**
 * Said politely when the note's length crosses a threshold: the counter is read only with the box, so a
 * screen reader user typing on would not hear the limit coming.
 */
function noteLengthWarning(count: number) {
  const limit = MAX_MESSAGE_LENGTH.toLocaleString('en-NG');
  if (count > MAX_MESSAGE_LENGTH) return `Over the limit of ${limit} characters.`;
  if (count > MAX_MESSAGE_LENGTH - 100) return '100 characters or fewer left.';
  if (count > MAX_MESSAGE_LENGTH - 500) return '500 characters or fewer left.';
  return '';
}

/** Without a layout to measure (before it, or in a hidden tab), a message longer than this is taken as cut. */
const FOLD_AT = 600;

/**
 * A message's text, folded to its first ten lines, with a button to show it whole when the fold cuts it
 * (measured, and again on resize: 5,000 characters filled seven phone screens, yet fit a desktop). Folded
 * by CSS alone: a screen reader still reads it all, and the button says what it hides.
 */
function LongNote({ id, note }: { id: string; note: string }) {
  const [open, setOpen] = useState(false);
  const count = useMemo(() => characterCount(note), [note]);
  const [cut, setCut] = useState(() => count > FOLD_AT);
  const text = useRef<HTMLParagraphElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const closedByButton = useRef(false);
  useLayoutEffect(() => {
    const el = text.current;
    // Measured only while folded: unfolded, nothing is cut, and Show less must stay.
    if (!el || open) return;
    const measure = () => setCut(el.clientHeight > 0 ? el.scrollHeight > el.clientHeight : count > FOLD_AT);
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const watch = new ResizeObserver(measure);
    watch.observe(el);
    return () => watch.disconnect();
  }, [open, count]);
  useEffect(() => {
    // Folding back a long message leaves the button far below: it is brought back into sight.
    if (open || !closedByButton.current) return;
    closedByButton.current = false;
    button.current?.scrollIntoView?.({ block: 'nearest' });
  }, [open]);
  const textId = `event-${id}-text`;
  return (
    <>
      <p
        ref={text}
        id={textId}
        className={`mt-1 text-sm wrap-anywhere whitespace-pre-wrap ${open ? '' : 'line-clamp-10'}`}
      >
        {note}
      </p>
      {(cut || open) && (
        <button
          ref={button}
          type="button"
          aria-expanded={open}
          aria-controls={textId}
          onClick={() => {
            closedByButton.current = open;
            setOpen((o) => !o);
          }}
          className="mt-1 min-h-11 text-sm font-semibold text-brand underline"
        >
          {open ? 'Show less' : `Show the whole message (${count.toLocaleString('en-NG')} characters)`}
        </button>
      )}
    </>
  );
}

function EventItem({ e, mine, unread = false }: { e: JobEventResponse; mine: boolean; unread?: boolean }) {
  // Inside the first unread item: a list may hold only list items (axe), and the line belongs to it.
  const divider = unread && (
    <div
      role="separator"
      className="my-1 flex w-full basis-full items-center gap-2 text-xs font-bold text-amber-800 uppercase"
    >
      <span className="h-px flex-1 bg-accent" /> New <span className="h-px flex-1 bg-accent" />
    </div>
  );
  const files = e.files.length > 0 && (
    <ul className="mt-2 flex flex-col gap-1">
      {e.files.map((f) => (
        <li key={f.url} className="flex min-w-0 items-center gap-1 text-sm">
          <FileText className="size-4 shrink-0" aria-hidden />
          <DocumentLink url={f.url} name={f.name} />
        </li>
      ))}
    </ul>
  );
  if (e.action === 'message')
    return (
      <li id={`event-${e._id}`} tabIndex={-1} className={`flex flex-wrap ${mine ? 'justify-end' : 'justify-start'}`}>
        {divider}
        <div
          className={`max-w-[85%] min-w-0 rounded-lg px-3 py-2 ${mine ? 'bg-brand/10' : 'border border-slate-200 bg-white'}`}
        >
          <p className="text-xs text-slate-600">
            <bdi className="font-semibold wrap-anywhere text-ink">{mine ? 'You' : e.actor.name}</bdi> ·{' '}
            <time dateTime={e.createdAt}>{formatWhen(e.createdAt)}</time>
          </p>
          <LongNote id={e._id} note={e.note ?? ''} />
          {files}
        </div>
      </li>
    );
  return (
    <li
      id={`event-${e._id}`}
      tabIndex={-1}
      className="rounded-md border-l-4 border-accent bg-slate-50 px-3 py-2 text-sm"
    >
      {divider}
      <p className="wrap-anywhere">
        {/* Isolated: a direction control in a name never turns the words after it around. */}
        <bdi className="font-semibold">{mine ? 'You' : e.actor.name}</bdi> {eventWords(e)}
        <span className="text-slate-600">
          {' '}
          · <time dateTime={e.createdAt}>{formatWhen(e.createdAt)}</time>
        </span>
      </p>
      {e.note && <p className="mt-1 wrap-anywhere whitespace-pre-wrap text-slate-800">{e.note}</p>}
      {files}
    </li>
  );
}

function Workspace({ data, jobId }: { data: JobPageResponse; jobId: string }) {
  const session = useSession();
  const me = session?.userId;
  const { job, actions, events } = data;
  const act = useJobAction(jobId);
  const qc = useQueryClient();
  const earlier = useEarlierEvents(jobId);
  // Kept as drafts: a reload, a dropped tab or a sign-in again after the session ran out finds the
  // message or delivery note as typed and the documents already uploaded (decision 2226).
  const [note, setNote, clearNote] = useDraft<string>(`job:${jobId}:note`, '');
  // Documents uploaded more than 6 days ago are dropped from the draft and named (staleFiles).
  const [files, setFiles, clearFiles, staleFiles] = useFilesDraft<UploadedFile>(`job:${jobId}:files`);
  const [uploading, setUploading] = useState(false);
  // The document the last Remove took out and where it was: a mis-tap on a phone would otherwise mean
  // uploading it again on a slow line. Undo takes focus, as Remove's row is gone.
  const [removedFile, setRemovedFile] = useState<{ file: UploadedFile; at: number } | null>(null);
  const undoRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (removedFile) undoRef.current?.focus();
  }, [removedFile]);
  // Why Undo could not put the document back (five attached meanwhile, or it is there again): said in
  // place of "removed", where a silent Undo looked broken.
  const [undoRefused, setUndoRefused] = useState<string | null>(null);
  // The document Undo put back: its Remove takes focus, as Undo's row goes (focus fell to the page).
  const restoredUrl = useRef<string | null>(null);
  // Every keystroke and every 4-second poll renders the page: the note is counted once per change.
  const noteLength = useMemo(() => characterCount(note), [note]);
  const [error, setError] = useState<string | null>(null);
  // The error is the note's own (missing, too long): the box is marked invalid for screen readers, and
  // typing in it takes the error away.
  const [noteInvalid, setNoteInvalid] = useState(false);
  const [confirming, setConfirming] = useState<JobAction | null>(null);
  // An admin's completion names whom it pays and how much: pressed before that loaded, it carried no check.
  const asksPayee = confirming === 'complete' && data.viewer === 'admin';
  const payee = usePayee(jobId, asksPayee);
  // A failed read hides the figure, so it cannot be pressed with it (usePayee drops an earlier opening's).
  const payeeShown = Boolean(payee.data?.data.job.payOnComplete) && !payee.isError;
  // One key per thing composed: a double click or a retry of the same sends it once (the API takes an
  // action once per key); a new note, new files or a sent action make a new one. Kept with the draft
  // once sent, so sending again after a reload whose answer was lost is the same send.
  const [freshKey, setFreshKey] = useState(randomUuid);
  const [sentKey, setSentKey] = useDraft<string>(`job:${jobId}:key`, '');
  const key = sentKey || freshKey;
  const renewKey = () => {
    setSentKey('');
    setFreshKey(randomUuid());
  };
  // Sends made before the user went elsewhere and came back: this page's mutation knows nothing of them
  // and their callbacks no longer run, so the buttons wait for one still on its way and a taken one's
  // text leaves the box, rather than sitting there as if unsent.
  const sends = useMutationState({
    filters: { mutationKey: jobActionKey(jobId) },
    select: (m) => ({
      status: m.state.status,
      variables: m.state.variables as JobActionSend | undefined,
      error: m.state.error,
    }),
  });
  const onItsWay = sends.find((s) => s.status === 'pending')?.variables;
  // Refused or lost while away: said on coming back, beside the text it kept, until this page sends.
  const lastOfDraft = sentKey ? sends.findLast((s) => s.variables?.key === sentKey) : undefined;
  const failedAway = act.isIdle && lastOfDraft?.status === 'error' ? getErrorMessage(lastOfDraft.error) : null;
  const shownError = error ?? failedAway;
  const taken = sentKey !== '' && sends.some((s) => s.status === 'success' && s.variables?.key === sentKey);
  useEffect(() => {
    if (!taken) return;
    setSentKey('');
    setFreshKey(randomUuid());
    clearNote();
    clearFiles();
  }, [taken, setSentKey, clearNote, clearFiles]);
  // The unread line stays where it was when the page opened, while the thread is read meanwhile.
  const [readUpTo] = useState(() => Number(data.lastReadEventId));
  const firstUnread = events.find((e) => Number(e._id) > readUpTo && e.actor._id !== me)?._id;

  const newest = events.at(-1)?._id;
  useEffect(() => {
    if (newest && Number(newest) > Number(data.lastReadEventId)) void markJobRead(jobId, newest);
  }, [jobId, newest, data.lastReadEventId]);

  // Earlier messages shown on request: focus goes to the oldest of them, to read on from there. The
  // button is busy (disabled) meanwhile and gone once none remain, so focus had fallen to the page.
  const [focusEvent, setFocusEvent] = useState<string | null>(null);
  useEffect(() => {
    const item = focusEvent ? document.getElementById(`event-${focusEvent}`) : null;
    // Once that event is in the list: the page's data may arrive a render after the answer.
    if (!item) return;
    item.focus();
    setFocusEvent(null);
  }, [focusEvent, events]);
  // What others add while the page is open is read out, once. Not the list itself as a live region: it
  // would read every earlier message loaded in front of it, and the reader's own sends back to them.
  const [heard, setHeard] = useState('');
  const seenUpTo = useRef(Number(newest ?? 0));
  useEffect(() => {
    const fresh = events.filter((e) => Number(e._id) > seenUpTo.current && e.actor._id !== me);
    seenUpTo.current = Math.max(seenUpTo.current, Number(newest ?? 0));
    const last = fresh.at(-1);
    if (!last) return;
    const said =
      last.action === 'message'
        ? `${last.actor.name} wrote: ${last.note ?? ''}`
        : `${last.actor.name} ${eventWords(last)}`;
    setHeard(fresh.length > 1 ? `${fresh.length} new events. The latest: ${said}` : said);
  }, [events, newest, me]);

  function take(action: JobAction) {
    const needs = transitionOf(action).needs;
    const text = note.trim();
    setNoteInvalid(false);
    if (needs?.note && !text) {
      setNoteInvalid(true);
      return setError(noteMissingMessage(action));
    }
    if (noteTooLong(text)) {
      setNoteInvalid(true);
      return setError(messages.messageTooLong);
    }
    if (needs?.files && !files.length) return setError(messages.deliveryNeedsDocument);
    if (CONFIRM[action] && confirming !== action) return setConfirming(action);
    if (action === 'complete' && data.viewer === 'admin' && !shownPay(qc, jobId)) return;
    setConfirming(null);
    setError(null);
    setSentKey(key);
    act.mutate(
      {
        action,
        key,
        note: text || undefined,
        // What is accepted or sent back is the delivery this page shows, not one that replaced it (decision 2258).
        delivery: JUDGES_DELIVERY.includes(action) && data.deliveries > 0 ? data.deliveries : undefined,
        files: files.length ? files.map((f) => ({ url: f.url, name: f.fileName })) : undefined,
        // The payee and amount the question showed: another by now is refused, not paid (decision 2340).
        payOnComplete: action === 'complete' && data.viewer === 'admin' ? shownPay(qc, jobId) : undefined,
      },
      {
        onSuccess: () => {
          renewKey();
          clearNote();
          clearFiles();
          setRemovedFile(null);
        },
        onError: (err) => setError(getErrorMessage(err)),
      },
    );
  }

  // The button of the action on its way is the one busy; the others wait, disabled.
  const sending = act.isPending ? act.variables.action : (onItsWay?.action ?? null);
  const busy = act.isPending || onItsWay !== undefined;
  const lawyer = job.assignedTo[0];
  const canWrite = actions.includes('message');
  const buttons = BUTTON_ACTIONS.filter((a) => actions.includes(a));

  return (
    <div className="mx-auto flex w-full max-w-3xl min-w-0 flex-col gap-4 px-4 py-6">
      <header className="rounded-xl border border-slate-200 bg-white p-4">
        <p className="text-sm text-slate-600">Job</p>
        <h1 className="heading-title wrap-anywhere">{job.productId.productName}</h1>
        <dl className="mt-3 grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
          <div>
            <dt className="text-slate-600">Status</dt>
            <dd className="font-semibold">
              {STAGE_LABELS[job.stage ?? 'unassigned']}
              {job.late && (
                <span className="ml-2 rounded bg-red-100 px-2 py-0.5 text-xs font-bold text-red-800">Late</span>
              )}
            </dd>
          </div>
          <div>
            <dt className="text-slate-600">Amount</dt>
            <dd className="font-semibold">
              {/* A plan job cost the company no money: say what paid for it beside the ₦0. */}
              {data.planCredit ? (
                <>
                  <span>
                    <Naira amount={job.amount} />
                  </span>{' '}
                  <span className="font-normal text-slate-600">(monthly plan credit)</span>
                </>
              ) : (
                <Naira amount={job.amount} />
              )}
            </dd>
          </div>
          {job.dueAt && (
            <div>
              <dt className="text-slate-600">Due</dt>
              <dd className="flex items-center gap-1">
                <Clock className="size-4" aria-hidden /> {formatDay(job.dueAt)}
              </dd>
            </div>
          )}
          {/* The moment the clock's timer accepts the delivery unanswered (decision 2331). */}
          {job.stage === 'delivered' && data.autoAcceptAt && (
            <div>
              <dt className="text-slate-600">Accepted automatically on</dt>
              <dd>
                {formatWhen(data.autoAcceptAt)}
                <span className="block text-xs text-slate-600">
                  {data.viewer === 'company'
                    ? 'Unless you accept the work or ask for changes before then.'
                    : 'Unless the company accepts the work or asks for changes before then.'}
                </span>
              </dd>
            </div>
          )}
          <div className="min-w-0">
            <dt className="text-slate-600">Company</dt>
            <dd className="wrap-anywhere">{job.companyId.companyName}</dd>
          </div>
          <div className="min-w-0">
            <dt className="text-slate-600">Lawyer</dt>
            <dd className="wrap-anywhere">{lawyer ? lawyer.name : 'Not assigned yet'}</dd>
          </div>
        </dl>
        {actions.includes('assign') && (
          <Link className="mt-3 inline-block font-semibold text-brand underline" to={paths.adminAssignJob(job._id)}>
            Assign a lawyer
          </Link>
        )}
      </header>

      {lawyer && (
        <JobLawyerReview
          lawyerId={lawyer._id}
          lawyerName={lawyer.name}
          jobId={job._id}
          canReview={data.viewer === 'company' && job.stage === 'completed'}
        />
      )}

      <section aria-labelledby="timeline-title" className="min-w-0">
        <h2 id="timeline-title" className="heading-card mb-2">
          Timeline and messages
        </h2>
        {data.earlier && (
          <div className="mb-2">
            <Button
              variant="secondary"
              disabled={earlier.isPending}
              onClick={() =>
                events[0] &&
                earlier.mutate(events[0]._id, { onSuccess: (older) => setFocusEvent(older.events[0]?._id ?? null) })
              }
            >
              {earlier.isPending ? 'Loading earlier messages…' : 'Show earlier messages'}
            </Button>
            {earlier.isError && (
              <p role="alert" className="mt-1 text-sm text-red-700">
                {getErrorMessage(earlier.error)}
              </p>
            )}
          </div>
        )}
        {events.length === 0 ? (
          <p className="text-sm text-slate-600">Nothing has happened on this job yet.</p>
        ) : (
          <ol className="flex flex-col gap-2" aria-labelledby="timeline-title">
            {events.map((e) => (
              <EventItem key={e._id} e={e} mine={e.actor._id === me} unread={e._id === firstUnread} />
            ))}
          </ol>
        )}
        <p role="status" className="sr-only">
          {heard}
        </p>
      </section>

      {(canWrite || buttons.length > 0) && (
        <section aria-labelledby="compose-title" className="rounded-xl border border-slate-200 bg-white p-4">
          <h2 id="compose-title" className="sr-only">
            Write to the job
          </h2>
          <label htmlFor="job-note" className="mb-1 block text-sm font-medium">
            Message or note
          </label>
          <textarea
            id="job-note"
            value={note}
            // Kept as sent while the send is on its way: an edit would renew the key, so the answer would
            // not take the text out of the box and it could go out again as a new message.
            readOnly={busy}
            aria-busy={busy || undefined}
            onChange={(e) => {
              setNote(e.target.value);
              renewKey();
              if (noteInvalid) {
                setNoteInvalid(false);
                setError(null);
              }
            }}
            rows={4}
            // A browser's maxLength counts UTF-16 units: 2,501 emoji would stop there, under the limit in
            // characters (decision 2336). The units' bound only stops a paste the API could never take.
            maxLength={MAX_MESSAGE_UNITS + 1}
            // The counter describes the box; while an error is shown the error alone does, so the reason
            // for the refusal is all a screen reader reads (the counter's thresholds are announced below).
            aria-describedby={shownError ? 'job-error' : 'job-note-count'}
            aria-invalid={(noteInvalid && error !== null) || undefined}
            className="w-full rounded-md border border-slate-300 px-3 py-2 text-sm"
            placeholder="Write a message, the changes you need, or a note with your delivery"
          />
          <p
            id="job-note-count"
            className={`mt-1 text-right text-xs ${noteLength > MAX_MESSAGE_LENGTH ? 'font-semibold text-red-700' : 'text-slate-600'}`}
          >
            {noteLength.toLocaleString('en-NG')} / {MAX_MESSAGE_LENGTH.toLocaleString('en-NG')}
          </p>
          <p aria-live="polite" className="sr-only">
            {noteLengthWarning(noteLength)}
          </p>
          {files.length > 0 && (
            <ul className="mb-2 flex flex-col gap-1 text-sm">
              {files.map((f) => (
                <li key={f.url} className="flex min-w-0 items-center justify-between gap-2">
                  <BreakableText className="min-w-0" text={f.fileName} />
                  <button
                    type="button"
                    className="min-h-11 shrink-0 px-2 text-sm text-red-700 underline disabled:opacity-50"
                    disabled={busy}
                    // Several documents each have a Remove: a screen reader names the one it takes out.
                    aria-label={`Remove ${f.fileName}`}
                    ref={(button) => {
                      if (button && f.url === restoredUrl.current) {
                        restoredUrl.current = null;
                        button.focus();
                      }
                    }}
                    onClick={() => {
                      setRemovedFile({ file: f, at: files.indexOf(f) });
                      setUndoRefused(null);
                      setFiles((l) => l.filter((x) => x.url !== f.url));
                      renewKey();
                    }}
                  >
                    Remove
                  </button>
                </li>
              ))}
            </ul>
          )}
          {removedFile && (
            <p role="status" className="mb-2 flex flex-wrap items-center gap-x-2 text-sm text-slate-700">
              <span className="min-w-0 wrap-anywhere">{undoRefused ?? `${removedFile.file.fileName} removed.`}</span>
              <button
                ref={undoRef}
                type="button"
                className="min-h-11 px-2 font-semibold text-brand underline disabled:opacity-50"
                disabled={busy}
                aria-label={`Undo: attach ${removedFile.file.fileName} again`}
                onClick={() => {
                  const { file, at } = removedFile;
                  if (files.some((x) => x.url === file.url)) {
                    setUndoRefused(`${file.fileName} is attached already.`);
                    return;
                  }
                  if (files.length >= MAX_EVENT_FILES) {
                    setUndoRefused(
                      `${file.fileName} cannot be attached again: a message carries at most ${MAX_EVENT_FILES} documents. Remove one first.`,
                    );
                    return;
                  }
                  restoredUrl.current = file.url;
                  setFiles((l) => [...l.slice(0, at), file, ...l.slice(at)]);
                  setRemovedFile(null);
                  renewKey();
                }}
              >
                Undo
              </button>
            </p>
          )}
          <StaleFilesNote names={staleFiles} />
          {files.length < 5 && (
            <FileUpload
              label="Attach a document"
              kind="document"
              value={null}
              onChange={(f) => {
                if (!f) return;
                setFiles((l) => [...l, f]);
                renewKey();
              }}
              onBusyChange={setUploading}
              hint="PDF, Word (DOC, DOCX) or a picture, at most 10 MB each. Up to 5 documents."
              disabled={busy}
            />
          )}
          {shownError && (
            <p id="job-error" role="alert" className="mt-2 text-sm text-red-700">
              {shownError}
            </p>
          )}
          <div className="mt-3 flex flex-wrap gap-2">
            {canWrite && (
              <Button onClick={() => take('message')} loading={sending === 'message'} disabled={uploading || busy}>
                <Send className="size-4" aria-hidden /> Send
              </Button>
            )}
            {buttons.map((a) => (
              <Button
                key={a}
                variant={a === 'cancel' ? 'danger' : 'secondary'}
                onClick={() => take(a)}
                loading={sending === a}
                disabled={uploading || busy}
              >
                {transitionOf(a).label}
              </Button>
            ))}
          </div>
        </section>
      )}
      <Modal
        open={confirming !== null}
        title={confirming ? transitionOf(confirming).label : ''}
        onClose={() => setConfirming(null)}
        footer={
          <>
            <Button variant="secondary" onClick={() => setConfirming(null)}>
              Go back
            </Button>
            <Button
              variant={confirming === 'cancel' ? 'danger' : 'primary'}
              onClick={() => confirming && take(confirming)}
              disabled={asksPayee && !payeeShown}
              aria-describedby={asksPayee && !payeeShown ? 'complete-payee-reason' : undefined}
            >
              {confirming ? transitionOf(confirming).label : ''}
            </Button>
          </>
        }
      >
        {confirming && <p>{CONFIRM[confirming]}</p>}
        {/* Whom it pays and how much: after a hand-over, a lawyer who may have delivered nothing (decision 2322). */}
        {asksPayee && <CompletePayee query={payee} reasonId="complete-payee-reason" />}
        {confirming === 'cancel' && (
          <p className="mt-2">
            {/* No refund is asked for: the API refunds a bought job in full and gives a plan job's credit back. */}
            {data.planCredit ? planMessages.jobCancelCredit : 'What the company paid for this job is refunded in full.'}
          </p>
        )}
      </Modal>
    </div>
  );
}

/** /jobs/:jobId: the job page for its company, its assigned lawyer and admins. */
export default function JobPage() {
  const { jobId = '' } = useParams();
  const q = useJobPage(jobId);
  useJobPolling(jobId, q.data);
  const title = useMemo(() => q.data?.job.productId.productName, [q.data]);
  useEffect(() => {
    if (title) document.title = `${title} · LegalMarket`;
  }, [title]);
  if (q.isPending) return <Loading label="Loading the job..." />;
  if (q.isError) return <ErrorState message={getErrorMessage(q.error)} onRetry={() => void q.refetch()} />;
  return <Workspace data={q.data} jobId={jobId} />;
}
