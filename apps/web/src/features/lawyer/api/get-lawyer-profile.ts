import { useQuery } from '@tanstack/react-query';
import type { AdminLawyer, LawyerResponse, UserProfileResponse } from '@legalmarket/contracts/admin';
import { messages } from '@legalmarket/contracts/messages';
import { api } from '@/lib/http';
import { lawyerKeys } from './keys';

/** A lawyer's profile as the admin and the lawyer itself read it (packages/contracts). */
export type LawyerProfile = AdminLawyer;

/** Admins read any lawyer through GET /api/lawyer/{id}; a lawyer its own profile (the server refuses other ids). */
async function getLawyerProfile(id: string, asAdmin: boolean): Promise<LawyerProfile> {
  if (asAdmin) {
    return (await api<LawyerResponse>(`/api/lawyer/${encodeURIComponent(id)}`)).lawyer;
  }
  // The profile itself; spec section 6: only an answer for the id asked for is shown.
  const profile = await api<UserProfileResponse>('/api/userprofile', { query: { _id: id } });
  if (profile._id !== id || profile.userType !== 'lawyer') throw new Error(messages.noPermissionProfile);
  return profile;
}

export const useLawyerProfile = (id: string | undefined, asAdmin: boolean) =>
  useQuery({
    queryKey: lawyerKeys.profile(id ?? '', asAdmin),
    queryFn: () => getLawyerProfile(id!, asAdmin),
    enabled: Boolean(id),
  });
