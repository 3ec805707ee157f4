import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { holiday, type holidaysResponse } from '@legalmarket/contracts/job-lifecycle';
import { Button } from '@/components/button';
import { EmptyState, ErrorState, Loading } from '@/components/feedback';
import { Field } from '@/components/field';
import { Modal } from '@/components/modal';
import { api, getErrorMessage } from '@/lib/http';
import { AdminLayout } from './admin-layout';

type Holidays = z.infer<typeof holidaysResponse>;
type HolidayValues = z.input<typeof holiday>;
const key = ['admin-holidays'] as const;

const dayLabel = (d: string) =>
  new Date(`${d}T12:00:00Z`).toLocaleDateString('en-NG', {
    weekday: 'short',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
  });

/** /admin/holidays: the public holidays that due dates, reminders and automatic acceptance skip. */
export default function HolidaysPage() {
  const qc = useQueryClient();
  const list = useQuery({ queryKey: key, queryFn: ({ signal }) => api<Holidays>('/api/admin/holidays', { signal }) });
  // The server's refusals (add or remove); the schema's messages sit under their fields.
  const [error, setError] = useState<string | null>(null);
  const [removing, setRemoving] = useState<string | null>(null);
  const { register, handleSubmit, reset, formState } = useForm<HolidayValues, unknown, z.output<typeof holiday>>({
    resolver: zodResolver(holiday),
    defaultValues: { date: '', name: '' },
  });
  // The server renames a date already listed ("Add (or rename)"): say so, or the old name vanishes unseen.
  const [renamed, setRenamed] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (body: z.output<typeof holiday>) => api<Holidays>('/api/admin/holidays', { method: 'POST', body }),
    onSuccess: (r, sent) => {
      const before = list.data?.holidays.find((h) => h.date === sent.date);
      setRenamed(
        before && before.name !== sent.name
          ? `${dayLabel(sent.date)} was already listed as ${before.name}: it is now named ${sent.name}.`
          : null,
      );
      qc.setQueryData(key, r);
      reset();
    },
    onError: (err) => setError(getErrorMessage(err)),
  });
  const remove = useMutation({
    mutationFn: (d: string) => api<Holidays>(`/api/admin/holidays/${d}`, { method: 'DELETE' }),
    onSuccess: (r) => {
      qc.setQueryData(key, r);
      setRemoving(null);
      // The notice described the list before this removal: it would now name a holiday gone.
      setRenamed(null);
    },
    // The dialog makes the page inert, so close it to show the refusal; another admin may have
    // changed the list (a 404: removed already), so read it again rather than keep a stale row.
    onError: (err) => {
      setRemoving(null);
      setError(getErrorMessage(err));
      void qc.invalidateQueries({ queryKey: key });
    },
  });

  const submit = handleSubmit(
    (v) => {
      setError(null);
      setRenamed(null);
      save.mutate(v);
    },
    () => setError(null),
  );

  return (
    <AdminLayout title="Public holidays">
      <p className="mb-4 max-w-prose text-sm text-slate-700">
        Due dates (10 working days after payment), reminders and automatic acceptance count Monday to Friday and skip
        these days. Dates already set on jobs do not move when you change the list.
      </p>
      <form onSubmit={submit} className="mb-6 flex flex-wrap items-start gap-3" noValidate>
        <Field label="Date" type="date" error={formState.errors.date?.message} {...register('date')} />
        <Field
          label="Name"
          className="min-w-0 flex-1"
          maxLength={100}
          placeholder="e.g. Eid al-Fitr"
          error={formState.errors.name?.message}
          {...register('name')}
        />
        {/* Level with the inputs under their labels, whichever field shows an error. */}
        <Button type="submit" className="mt-6" loading={save.isPending}>
          Add holiday
        </Button>
      </form>
      {renamed && (
        <p role="status" className="mb-3 text-sm text-slate-700">
          {renamed}
        </p>
      )}
      {error && (
        <p role="alert" className="mb-3 text-sm text-red-700">
          {error}
        </p>
      )}
      {list.isPending ? (
        <Loading />
      ) : list.isError ? (
        <ErrorState message={getErrorMessage(list.error)} onRetry={() => void list.refetch()} />
      ) : list.data.holidays.length === 0 ? (
        <EmptyState>No holidays: only weekends are skipped.</EmptyState>
      ) : (
        <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
          {list.data.holidays.map((h) => (
            <li key={h.date} className="flex flex-wrap items-center justify-between gap-2 px-3 py-2 text-sm">
              <span className="min-w-0 wrap-anywhere">
                <span className="font-semibold">{dayLabel(h.date)}</span> · {h.name}
              </span>
              <button
                type="button"
                className="min-h-11 px-2 text-red-700 underline"
                onClick={() => setRemoving(h.date)}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      <Modal
        open={removing !== null}
        title="Remove this holiday?"
        onClose={() => setRemoving(null)}
        footer={
          <>
            <Button variant="secondary" onClick={() => setRemoving(null)}>
              Keep it
            </Button>
            <Button
              variant="danger"
              loading={remove.isPending}
              onClick={() => {
                if (!removing) return;
                setError(null);
                remove.mutate(removing);
              }}
            >
              Remove
            </Button>
          </>
        }
      >
        {removing && `${dayLabel(removing)} will count as a working day for new due dates.`}
      </Modal>
    </AdminLayout>
  );
}
