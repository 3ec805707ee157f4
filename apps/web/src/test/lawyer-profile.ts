import type { AdminLawyer } from '@legalmarket/contracts/admin';

/** A verified lawyer's own profile, as GET /api/profile answers it. */
export const verifiedLawyer: AdminLawyer = {
  _id: 'l1',
  name: 'Chidi Okeke',
  officialEmail: 'chidi@example.ng',
  phoneNumber: '08087654321',
  profileImage: null,
  yourBio: null,
  alternativeEmailAddress: null,
  scn: 'SCN1',
  cac: null,
  lawFirmName: null,
  lawFirmAddress: null,
  areasOfPractise: ['Technology'],
  yearOfCall: null,
  verified: true,
  verificationRejection: null,
  createdAt: '2026-01-01T00:00:00.000Z',
};
