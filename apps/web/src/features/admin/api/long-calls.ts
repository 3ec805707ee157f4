import { REQUEST_TIMEOUT_MS } from '@/lib/http';

/*
 * The admin's calls the server answers only after the payment provider (decision 2306). deploy/nginx.conf
 * must wait for them at least as long, and never pass them to another instance on a timeout.
 */

/**
 * Reconciliation: the server lists the provider's transactions and transfers of the period page by
 * page, up to 10 s a page: a long period takes well past the 30 s of an ordinary call.
 */
export const RECONCILE_TIMEOUT_MS = 120_000;

/**
 * The API's longest send of one approved payout while the provider is down (`apps/api/src/features/
 * money/payouts.ts`): 3 tries of up to 10 s each (the provider call's limit) and the 0.2 s and 1 s
 * pauses between them (SEND_RETRIES_MS), 31.2 s, rounded up.
 */
export const PAYOUT_SEND_MS = 32_000;

/** A batch of `count` payouts: the server sends each in turn before it answers. */
export const approveBudgetMs = (count: number) => REQUEST_TIMEOUT_MS + count * PAYOUT_SEND_MS;
