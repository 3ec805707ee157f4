import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UpdateProfileResponse } from '@legalmarket/contracts/admin';
import { CLEARABLE_PROFILE_FIELDS, LAWYER_EDITABLE_FIELDS } from '@legalmarket/contracts/constants';
import { uploadWithProgress } from '@/lib/http';
import { ownProfileKey } from '@/lib/own-profile';
import { lawyerKeys } from './keys';

export interface ProfileChanges {
  profileImage?: File | null;
  officialEmail?: string;
  /** Sent only with a new sign-in address (docs/decisions/0210). */
  currentPassword?: string;
  scn?: string;
  yourBio?: string;
  phoneNumber?: string;
  alternativeEmailAddress?: string;
  yearOfCall?: string;
  areasOfPractise?: string[];
}

const clearable: readonly string[] = CLEARABLE_PROFILE_FIELDS;

/**
 * The multipart body of PATCH /api/updateprofile: the non-empty fields, the optional ones also when
 * emptied (which clears them), areasOfPractise repeated (or one empty value to clear it).
 */
export function profileForm(changes: ProfileChanges): FormData {
  const form = new FormData();
  for (const key of LAWYER_EDITABLE_FIELDS) {
    const v = changes[key]?.trim();
    if (v || (v === '' && clearable.includes(key))) form.append(key, v);
  }
  if (changes.currentPassword) form.append('currentPassword', changes.currentPassword);
  // The list sent replaces the saved one; an empty list goes as one empty value, which clears it.
  const areas = changes.areasOfPractise;
  if (areas) for (const area of areas.length ? areas : ['']) form.append('areasOfPractise', area);
  if (changes.profileImage) form.append('profileImage', changes.profileImage);
  return form;
}

/** PATCH /api/updateprofile?_id=, its progress told to `onProgress` (a new picture may be 5 MB). */
export function useUpdateProfile(id: string, onProgress?: (fraction: number) => void) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (changes: ProfileChanges) =>
      uploadWithProgress<UpdateProfileResponse>(
        `/api/updateprofile?_id=${encodeURIComponent(id)}`,
        profileForm(changes),
        onProgress ?? (() => {}),
        { method: 'PATCH' },
      ),
    onSuccess: () => {
      // The navbar's picture reads this one.
      void qc.invalidateQueries({ queryKey: ownProfileKey(id) });
      return qc.invalidateQueries({ queryKey: lawyerKeys.profile(id, false) });
    },
  });
}
