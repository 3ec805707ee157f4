import { afterEach, expect, it, vi } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { setSession } from '@/lib/session';
import { useFilesDraft, useFormDraft } from '@/lib/drafts';
import { StaleFilesNote, type UploadedFile } from './file-upload';
import { FormDocumentField } from './form-document-field';

// A lawyer uploads a delivery on day 0 (the page uploads a file as soon as it is picked, the draft keeps
// its address) and presses Deliver on day 8: the server swept the unattached file after a week and the
// send was refused naming no file. A drafted file past 6 days is dropped on restore, and said by name.
const DAY = 86_400_000;
afterEach(() => {
  vi.useRealTimers();
  localStorage.clear();
});

function Composer() {
  const [files, , , stale] = useFilesDraft<UploadedFile>('job:j1:files');
  return (
    <>
      <StaleFilesNote names={stale} />
      <ul>
        {files.map((f) => (
          <li key={f.url}>{f.fileName}</li>
        ))}
      </ul>
    </>
  );
}

it('drops a drafted job file uploaded over 6 days ago, keeps a fresh one, and names the dropped one', async () => {
  setSession({ userToken: 't', userType: 'lawyer', userId: 'l1' });
  const now = Date.now();
  localStorage.setItem(
    'draft:l1:job:j1:files',
    JSON.stringify([
      { fileName: 'Final opinion.pdf', url: '/uploads/a.pdf', uploadedAt: now - 7 * DAY },
      { fileName: 'Annex.pdf', url: '/uploads/b.pdf', uploadedAt: now - DAY },
    ]),
  );
  render(<Composer />);
  const note = await screen.findByText(/Final opinion\.pdf/, { selector: '[aria-live="polite"]' });
  expect(note.textContent).toMatch(/upload it again/);
  expect(screen.getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Annex.pdf']);
  expect(JSON.parse(localStorage.getItem('draft:l1:job:j1:files')!)).toEqual([
    { fileName: 'Annex.pdf', url: '/uploads/b.pdf', uploadedAt: now - DAY },
  ]);
});

interface Brief {
  detail: string;
  file?: string;
  fileName?: string;
}

function BriefForm() {
  const form = useForm<Brief>({ defaultValues: { detail: '', file: undefined, fileName: undefined } });
  const [stale, setStale] = useState<string[]>([]);
  useFormDraft('brief:p1', form, ['detail', 'file', 'fileName'], (n) => setStale([n]));
  return (
    <form>
      <textarea aria-label="Detail" {...form.register('detail')} />
      <FormDocumentField control={form.control} label="Upload a document" onBusyChange={() => {}} staleFiles={stale} />
      <button type="button" onClick={() => form.setValue('file', '/uploads/c.pdf')}>
        Pick
      </button>
    </form>
  );
}

it('keeps when a form draft’s document was uploaded and drops it once past 6 days, naming it', async () => {
  vi.useFakeTimers({ toFake: ['Date'] });
  setSession({ userToken: 't', userType: 'company', userId: 'c1' });
  const first = render(<BriefForm />);
  act(() => screen.getByRole('button', { name: 'Pick' }).click());
  const kept = JSON.parse(localStorage.getItem('draft:c1:brief:p1')!);
  expect(kept.file).toBe('/uploads/c.pdf');
  expect(kept.fileUploadedAt).toBe(Date.now());
  first.unmount();

  localStorage.setItem(
    'draft:c1:brief:p1',
    JSON.stringify({ ...kept, detail: 'Lease for the Lekki office', fileName: 'Lease.pdf' }),
  );
  vi.advanceTimersByTime(6 * DAY + 60_000);
  render(<BriefForm />);
  expect(await screen.findByText(/“Lease\.pdf” was uploaded more than 6 days ago/)).toHaveAttribute(
    'aria-live',
    'polite',
  );
  expect(screen.getByLabelText('Detail')).toHaveValue('Lease for the Lekki office');
  expect(screen.queryByText('Lease.pdf')).toBeNull();
  expect(JSON.parse(localStorage.getItem('draft:c1:brief:p1')!)).toEqual({ detail: 'Lease for the Lekki office' });
});
