import { describe, expect, it, vi } from 'vitest';
import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { messages } from '@legalmarket/contracts/messages';
import { setSession } from '@/lib/session';
import { heldFetch } from '@/test/held-fetch';
import { renderPage, testQueryClient } from '@/test/render';
import { xhrThroughFetch } from '@/test/xhr-through-fetch';
import { lawyerKeys } from './api/keys';
import LawyerProfilePage from './profile-page';
import { verifiedLawyer as me } from '@/test/lawyer-profile';

describe('the lawyer profile picture on its way', () => {
  it('shows how much of it has gone up while the save waits', async () => {
    // The save's answer waits until the test lets it through.
    const api = heldFetch(
      {
        'PATCH /api/updateprofile': () => ({ body: { status: 'success', message: messages.profileUpdated } }),
        'GET /api/userprofile': () => ({ body: { ...me, userType: 'lawyer' } }),
      },
      ({ method }) => method === 'PATCH',
    );
    vi.stubGlobal('fetch', api.fn);
    const uploads = xhrThroughFetch();
    URL.createObjectURL = vi.fn(() => 'blob:picture');
    URL.revokeObjectURL = vi.fn();
    setSession({ userToken: 't', userType: 'lawyer', userId: 'l1' });
    const client = testQueryClient();
    client.setQueryData(lawyerKeys.profile('l1', false), me);
    // The reviews section under the profile: none yet, read from the cache.
    const noReviews = { status: 'success', data: { average: null, count: 0, reviews: [] } };
    client.setQueryData(['lawyer-reviews', 'l1'], noReviews);
    renderPage(<LawyerProfilePage />, { path: '/lawyer/profile/:lawyerId', at: '/lawyer/profile/l1', client });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: /Update your details/ }));
    await user.upload(
      document.querySelector<HTMLInputElement>('input[type="file"]')!,
      new File(['\xff\xd8\xff'], 'IMG_20261127_101500.jpg', { type: 'image/jpeg' }),
    );
    await user.click(screen.getByRole('button', { name: 'Save' }));
    // Sent as an upload, whose progress is told, not by fetch, whose is not.
    await vi.waitFor(() => expect(uploads.sent).toHaveLength(1));
    act(() => uploads.sent[0].progress(35, 100));
    expect(await screen.findByRole('progressbar', { name: 'Uploading IMG_20261127_101500.jpg' })).toHaveAttribute(
      'value',
      '35',
    );
    await act(async () => api.release());
    expect(await screen.findByText(messages.profileUpdated)).toBeInTheDocument();
    expect(screen.queryByRole('progressbar')).toBeNull();
    const patch = api.calls.find((c) => c.method === 'PATCH');
    expect((patch?.init?.body as FormData).get('profileImage')).toBeInstanceOf(File);
  });
});
