import { api } from '@/lib/http';
import type { LoginResponse } from '@legalmarket/contracts/auth';
import type { LoginOrChallengeResponse } from '@legalmarket/contracts/two-factor';
import type { OkMessage as Ok } from '@legalmarket/contracts/common';

/** The spec's answer, or a challenge when the account has two-factor on (decision 2020). */
export const loginRequest = (body: { officialEmail: string; password: string }) =>
  api<LoginOrChallengeResponse>('/api/login', { method: 'POST', body, allowUnauthorized: true });

/** The second step of a sign-in with two-factor: the challenge and a code answer the token. */
export const loginCodeRequest = (body: { challengeToken: string; code: string }) =>
  api<LoginResponse>('/api/login/two-factor', { method: 'POST', body, allowUnauthorized: true });

export const signupRequest = (type: 'company' | 'lawyer' | 'admin', body: Record<string, unknown>) =>
  api<Ok>(`/api/${type}/signup`, { method: 'POST', body });

export const forgotPasswordRequest = (officialEmail: string) =>
  api<Ok>('/api/forgot-password', { method: 'POST', body: { officialEmail } });

export const confirmResetCodeRequest = (officialEmail: string, token: string) =>
  api<Ok & { resetToken: string }>('/api/confirm-reset-token', { method: 'POST', body: { officialEmail, token } });

export const resetPasswordRequest = (
  userEmail: string,
  token: string,
  body: { password: string; passwordConfirm: string },
) => api<Ok>('/api/reset-password', { method: 'PATCH', query: { userEmail, token }, body });

export const resendConfirmationRequest = (officialEmail: string) =>
  api<Ok>('/api/resendconfirmemail', { method: 'POST', body: { officialEmail } });

export const confirmEmailRequest = (token: string) =>
  api<Ok>('/api/confirm-email', { method: 'POST', body: { token } });

/** The link sent to a new sign-in address (docs/decisions/0210). */
export const confirmEmailChangeRequest = (token: string) =>
  api<Ok>('/api/confirm-email-change', { method: 'POST', body: { token } });

/** The link sent to the old address: cancels a pending change or reverts a completed one. */
export const undoEmailChangeRequest = (token: string) =>
  api<Ok>('/api/undo-email-change', { method: 'POST', body: { token } });
