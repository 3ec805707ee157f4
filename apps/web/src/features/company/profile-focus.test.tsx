import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setSession } from '@/lib/session';
import { renderPage, testQueryClient } from '@/test/render';
import { companyKeys } from './api/keys';
import type { CompanyProfile } from './api/profile';
import CompanyProfilePage from './profile-page';

const me: CompanyProfile = {
  _id: 'c1',
  name: 'Ada Obi',
  companyName: 'Obi Ventures',
  contactName: 'Ada Obi',
  phoneNumber: '08012345678',
  officialEmail: 'ada@example.ng',
  officeAddress: null,
  cac: null,
  industry: null,
  website: null,
  yourBio: null,
  alternativeEmailAddress: null,
  profileImage: null,
  createdAt: '2026-01-01T00:00:00.000Z',
};

describe('/company/profile focus between the view and the edit form', () => {
  it('heads the form, focuses that heading on Update your details, and the button again on Cancel', async () => {
    setSession({ userToken: 't', userType: 'company', userId: 'c1' });
    const client = testQueryClient();
    client.setQueryData(companyKeys.profile('c1', 'own'), me);
    renderPage(<CompanyProfilePage />, { path: '/company/profile/:companyId', at: '/company/profile/c1', client });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: /Update your details/ }));
    expect(screen.getByRole('heading', { level: 1, name: 'Update your details' })).toHaveFocus();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.getByRole('button', { name: /Update your details/ })).toHaveFocus();
  });
});
