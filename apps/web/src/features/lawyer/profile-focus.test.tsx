import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setSession } from '@/lib/session';
import { renderPage, testQueryClient } from '@/test/render';
import { verifiedLawyer as me } from '@/test/lawyer-profile';
import { lawyerKeys } from './api/keys';
import LawyerProfilePage from './profile-page';

describe('/lawyer/profile focus between the view and the edit form', () => {
  it('goes to the form heading on Update your details, and back to that button on Cancel', async () => {
    setSession({ userToken: 't', userType: 'lawyer', userId: 'l1' });
    const client = testQueryClient();
    client.setQueryData(lawyerKeys.profile('l1', false), me);
    client.setQueryData(['lawyer-reviews', 'l1'], {
      status: 'success',
      data: { average: null, count: 0, reviews: [] },
    });
    renderPage(<LawyerProfilePage />, { path: '/lawyer/profile/:lawyerId', at: '/lawyer/profile/l1', client });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: /Update your details/ }));
    expect(screen.getByRole('heading', { level: 1, name: 'Update your details' })).toHaveFocus();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.getByRole('button', { name: /Update your details/ })).toHaveFocus();
  });
});
