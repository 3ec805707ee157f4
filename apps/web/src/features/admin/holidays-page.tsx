import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { holidaysResponse } from '@legalmarket/contracts/job-lifecycle';
import { Button } from '@/components/button';
import { EmptyState, ErrorState, Loading } from '@/components/feedback';
import { Modal } from '@/components/modal';
import { api, getErrorMessage } from '@/lib/http';
import { AdminLayout } from './admin-layout';

type Holidays = z.infer<typeof holidaysResponse>;
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
  const [date, setDate] = useState('');
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [removing, setRemoving] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: () => api<Holidays>('/api/admin/holidays', { method: 'POST', body: { date, name: name.trim() } }),
    onSuccess: (r) => {
      qc.setQueryData(key, r);
      setDate('');
      setName('');
    },
    onError: (err) => setError(getErrorMessage(err)),
  });
  const remove = useMutation({
    mutationFn: (d: string) => api<Holidays>(`/api/admin/holidays/${d}`, { method: 'DELETE' }),
    onSuccess: (r) => {
      qc.setQueryData(key, r);
      setRemoving(null);
    },
    onError: (err) => setError(getErrorMessage(err)),
  });

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    setError(null);
    if (!date) return setError('Please enter the date as YYYY-MM-DD');
    if (!name.trim()) return setError('Please enter the holiday name');
    save.mutate();
  };

  return (
    <AdminLayout title="Public holidays">
      <p className="mb-4 max-w-prose text-sm text-slate-700">
        Due dates (10 working days after payment), reminders and automatic acceptance count Monday to Friday and skip
        these days. Dates already set on jobs do not move when you change the list.
      </p>
      <form onSubmit={submit} className="mb-6 flex flex-wrap items-end gap-3" noValidate>
        <label className="flex flex-col text-sm font-medium">
          Date
          <input
            type="date"
            value={date}
            onChange={(e) => setDate(e.target.value)}
            className="mt-1 min-h-11 rounded-md border border-slate-300 px-3"
          />
        </label>
        <label className="flex min-w-0 flex-1 flex-col text-sm font-medium">
          Name
          <input
            value={name}
            maxLength={100}
            onChange={(e) => setName(e.target.value)}
            className="mt-1 min-h-11 rounded-md border border-slate-300 px-3"
            placeholder="e.g. Eid al-Fitr"
          />
        </label>
        <Button type="submit" loading={save.isPending}>
          Add holiday
        </Button>
      </form>
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
              <span className="min-w-0 break-words">
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
            <Button variant="danger" loading={remove.isPending} onClick={() => removing && remove.mutate(removing)}>
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
