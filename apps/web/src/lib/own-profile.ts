import type { UserProfileResponse } from '@legalmarket/contracts/admin';
import { api } from './http';

/**
 * The signed-in user's own profile in the query cache: the navbar reads its picture there
 * (app/data-provider.tsx), and a saved profile invalidates it, so a new picture shows at once.
 */
export const ownProfileKey = (userId: string) => ['userprofile', userId] as const;

/** GET /api/userprofile?_id=: the signed-in user's own profile. */
export const getOwnProfile = (userId: string, signal?: AbortSignal) =>
  api<UserProfileResponse>('/api/userprofile', { query: { _id: userId }, signal });
