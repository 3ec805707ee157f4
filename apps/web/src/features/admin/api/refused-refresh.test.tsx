import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { setSession } from '@/lib/session';
import { jsonFetch, testQueryClient } from '@/test/render';
import { useAssignJob } from './assign-job';
import { useCompleteJob } from './complete-job';
import { adminKeys } from './keys';
import { useRejectLawyer } from './reject-lawyer';
import { useVerifyLawyer } from './verify-lawyer';

/** A 409 or 404 means another admin acted first: the lists shown must be read again, not kept. */
describe('admin actions refused because another admin acted first', () => {
  const refused = { status: 409, body: { status: 'fail', message: 'This job is no longer pending.' } };
  const cases: Array<[string, string, (client: ReturnType<typeof testQueryClient>) => Promise<unknown>]> = [
    ['Mark as Completed', 'PUT /job-api/completejob/j1', (client) => run(client, () => useCompleteJob(), 'j1')],
    ['Assign', 'POST /job-api/assign', (client) => run(client, () => useAssignJob(), { jobId: 'j1', lawyerId: 'l1' })],
    ['Verify Lawyer', 'PATCH /api/verifylawyer/l1', (client) => run(client, () => useVerifyLawyer(), 'l1')],
    [
      'Reject',
      'POST /api/rejectlawyer/l1',
      (client) => run(client, () => useRejectLawyer(), { id: 'l1', reason: 'SCN does not match the roll' }),
    ],
  ];

  async function run<V>(
    client: ReturnType<typeof testQueryClient>,
    hook: () => { mutateAsync: (v: V) => Promise<unknown> },
    variables: V,
  ) {
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    );
    const { result } = renderHook(hook, { wrapper });
    await act(async () => {
      await result.current.mutateAsync(variables).catch(() => undefined);
    });
  }

  it.each(cases)('%s refused: the jobs and lawyers lists are marked stale', async (_name, route, act) => {
    setSession({ userToken: 't', userType: 'admin', userId: 'a1' });
    vi.stubGlobal('fetch', jsonFetch({ [route]: () => refused }).fn);
    const client = testQueryClient();
    client.setQueryData(adminKeys.jobs('pending', 1), { jobs: [] });
    client.setQueryData(adminKeys.lawyers(false, 1), { lawyers: [] });
    await act(client);
    expect(client.getQueryState(adminKeys.jobs('pending', 1))?.isInvalidated).toBe(true);
    expect(client.getQueryState(adminKeys.lawyers(false, 1))?.isInvalidated).toBe(true);
  });
});
