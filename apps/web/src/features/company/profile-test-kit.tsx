import { setSession } from '@/lib/session';
import { renderPage, testQueryClient } from '@/test/render';
import { companyKeys } from './api/keys';
import type { CompanyProfile } from './api/profile';
import CompanyProfilePage from './profile-page';

/** Company c1's own profile, Obi Ventures of Ada Obi, none of its optional details given. */
export const ownProfile: CompanyProfile = {
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

/** Signs c1 in and opens its profile page, the profile already read. */
export function openOwnProfile() {
  setSession({ userToken: 't', userType: 'company', userId: 'c1' });
  const client = testQueryClient();
  client.setQueryData(companyKeys.profile('c1', 'own'), ownProfile);
  renderPage(<CompanyProfilePage />, { path: '/company/profile/:companyId', at: '/company/profile/c1', client });
}
