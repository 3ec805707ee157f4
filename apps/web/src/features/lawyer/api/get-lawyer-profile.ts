import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/http';
import { lawyerKeys } from './keys';

export interface LawyerProfile {
  _id: string;
  userType: string;
  name: string;
  officialEmail: string;
  phoneNumber: string;
  profileImage: { url: string } | null;
  yourBio: string | null;
  alternativeEmailAddress: string | null;
  scn: string | null;
  cac: string | null;
  lawFirmName: string | null;
  lawFirmAddress: string | null;
  areasOfPractise: string[];
  yearOfCall: string | null;
  verified: boolean;
  createdAt: string;
}

/** Admins read any lawyer through GET /api/lawyer/{id}; a lawyer its own profile (the server refuses other ids). */
export async function getLawyerProfile(id: string, asAdmin: boolean): Promise<LawyerProfile> {
  if (asAdmin) {
    const res = await api<{ data: { lawyer: LawyerProfile } }>(`/api/lawyer/${encodeURIComponent(id)}`);
    return res.data.lawyer;
  }
  const res = await api<{ data: { user: LawyerProfile } }>('/api/userprofile', { query: { _id: id } });
  return res.data.user;
}

export const useLawyerProfile = (id: string | undefined, asAdmin: boolean) =>
  useQuery({
    queryKey: lawyerKeys.profile(id ?? '', asAdmin),
    queryFn: () => getLawyerProfile(id!, asAdmin),
    enabled: Boolean(id),
  });
