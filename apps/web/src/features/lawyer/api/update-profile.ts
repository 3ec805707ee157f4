import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UpdateProfileAnswer } from '@legalmarket/contracts/admin';
import { api } from '@/lib/http';
import { lawyerKeys } from './keys';

export interface ProfileChanges {
  profileImage?: File | null;
  officialEmail?: string;
  scn?: string;
  yourBio?: string;
  phoneNumber?: string;
  alternativeEmailAddress?: string;
  yearOfCall?: string;
  areasOfPractise?: string[];
}

/** The multipart body of PATCH /api/updateprofile: only non-empty fields, areasOfPractise repeated. */
export function profileForm(changes: ProfileChanges): FormData {
  const form = new FormData();
  for (const key of [
    'officialEmail',
    'scn',
    'yourBio',
    'phoneNumber',
    'alternativeEmailAddress',
    'yearOfCall',
  ] as const) {
    const v = changes[key]?.trim();
    if (v) form.append(key, v);
  }
  for (const area of changes.areasOfPractise ?? []) form.append('areasOfPractise', area);
  if (changes.profileImage) form.append('profileImage', changes.profileImage);
  return form;
}

export const updateProfile = (id: string, changes: ProfileChanges) =>
  api<UpdateProfileAnswer>(`/api/updateprofile?_id=${encodeURIComponent(id)}`, {
    method: 'PATCH',
    body: profileForm(changes),
  });

export function useUpdateProfile(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (changes: ProfileChanges) => updateProfile(id, changes),
    onSuccess: () => qc.invalidateQueries({ queryKey: lawyerKeys.profile(id, false) }),
  });
}
