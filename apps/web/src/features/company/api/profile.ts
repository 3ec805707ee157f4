import { companyKeys } from './keys';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  AdminCompany,
  CompanyResponse,
  UpdateProfileResponse,
  UserProfileResponse,
} from '@legalmarket/contracts/admin';
import { messages } from '@legalmarket/contracts/messages';
import { api, uploadWithProgress } from '@/lib/http';
import { ownProfileKey } from '@/lib/own-profile';

/** A company's profile as the admin and the company itself read it (packages/contracts). */
export type CompanyProfile = AdminCompany;

/**
 * An admin reads any company through GET /api/company/{id}; everyone else reads their own profile
 * through GET /api/userprofile (the server answers 403 for any other id).
 */
export function useCompanyProfile(companyId: string, asAdmin: boolean) {
  return useQuery({
    // Not the navbar's ownProfileKey: a saved profile invalidates both.
    queryKey: companyKeys.profile(companyId, asAdmin ? 'admin' : 'own'),
    queryFn: async ({ signal }) => {
      if (asAdmin) {
        const res = await api<CompanyResponse>(`/api/company/${encodeURIComponent(companyId)}`, { signal });
        return res.company;
      }
      // The profile itself; spec section 6: only an answer for the id asked for is shown.
      const profile = await api<UserProfileResponse>('/api/userprofile', { query: { _id: companyId }, signal });
      if (profile._id !== companyId || profile.userType !== 'company') throw new Error(messages.noPermissionProfile);
      return profile satisfies CompanyProfile;
    },
    retry: false,
  });
}

/** PATCH /api/updateprofile?_id= (multipart, only non-empty fields), its progress told to `onProgress`. */
export function useUpdateProfile(companyId: string, onProgress?: (fraction: number) => void) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (form: FormData) =>
      uploadWithProgress<UpdateProfileResponse>(
        `/api/updateprofile?_id=${encodeURIComponent(companyId)}`,
        form,
        onProgress ?? (() => {}),
        {
          method: 'PATCH',
        },
      ),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: ownProfileKey(companyId) });
      void qc.invalidateQueries({ queryKey: companyKeys.profileAll(companyId) });
    },
  });
}
