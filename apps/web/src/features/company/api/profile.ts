import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, uploadWithProgress } from '@/lib/http';

export interface CompanyProfile {
  _id: string;
  userType: string;
  name: string;
  companyName?: string | null;
  contactName?: string | null;
  officialEmail: string;
  phoneNumber: string;
  website?: string | null;
  yourBio?: string | null;
  officeAddress?: string | null;
  alternativeEmailAddress?: string | null;
  profileImage: { url: string } | null;
}

/**
 * An admin reads any company through GET /api/company/{id}; everyone else reads their own profile
 * through GET /api/userprofile (the server answers 403 for any other id).
 */
export function useCompanyProfile(companyId: string, asAdmin: boolean) {
  return useQuery({
    // Not the navbar's ['userprofile'] key: that one caches the whole answer, this one the profile.
    queryKey: ['company-profile', companyId, asAdmin ? 'admin' : 'own'],
    queryFn: async ({ signal }) => {
      if (asAdmin) {
        const res = await api<{ data: { company: CompanyProfile } }>(`/api/company/${encodeURIComponent(companyId)}`, {
          signal,
        });
        return res.data.company;
      }
      const res = await api<{ data: { user: CompanyProfile } }>('/api/userprofile', {
        query: { _id: companyId },
        signal,
      });
      return res.data.user;
    },
    retry: false,
  });
}

/** PATCH /api/updateprofile?_id= (multipart, only non-empty fields). */
export function useUpdateProfile(companyId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (form: FormData) =>
      uploadWithProgress<{ message: string }>(
        `/api/updateprofile?_id=${encodeURIComponent(companyId)}`,
        form,
        () => {},
        {
          method: 'PATCH',
        },
      ),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: ['userprofile'] });
      void qc.invalidateQueries({ queryKey: ['company-profile', companyId] });
    },
  });
}
