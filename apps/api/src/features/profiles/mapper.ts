import type { users } from '../../db/schema.js';

type UserRow = typeof users.$inferSelect;

/** What every profile shows, in the spec's field names (never the password hash). */
const common = (u: UserRow) => ({
  _id: u.id,
  name: u.name,
  officialEmail: u.officialEmail,
  phoneNumber: u.phoneNumber,
  profileImage: u.profileImage ? { url: u.profileImage } : null,
  yourBio: u.yourBio,
  alternativeEmailAddress: u.alternativeEmailAddress,
  createdAt: u.createdAt.toISOString(),
});

/** A company as an admin lists it. */
export const toCompanyProfile = (u: UserRow) => ({
  ...common(u),
  companyName: u.companyName,
  contactName: u.contactName,
  officeAddress: u.officeAddress,
  cac: u.cac,
  industry: u.industry,
  website: u.website,
});

/** A lawyer as an admin lists it. */
export const toLawyerProfile = (u: UserRow) => ({
  ...common(u),
  scn: u.scn,
  cac: u.cac,
  lawFirmName: u.lawFirmName,
  lawFirmAddress: u.lawFirmAddress,
  areasOfPractise: u.areasOfPractise,
  yearOfCall: u.yearOfCall,
  verified: u.verified,
  verificationRejection:
    u.verificationRejectedAt && u.verificationRejectionReason
      ? { reason: u.verificationRejectionReason, rejectedAt: u.verificationRejectedAt.toISOString() }
      : null,
});

/** The one user-to-profile mapping: a user's own profile, or one read by id, with its userType. */
export function toProfile(u: UserRow) {
  const head = { _id: u.id, userType: u.userType };
  if (u.userType === 'company') return { ...head, ...toCompanyProfile(u) };
  if (u.userType === 'lawyer') return { ...head, ...toLawyerProfile(u) };
  return { ...head, ...common(u) };
}
