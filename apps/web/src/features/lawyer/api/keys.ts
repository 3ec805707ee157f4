/** Query keys of the lawyer workspace, so mutations invalidate exactly what they change. */
export const lawyerKeys = {
  all: ['lawyer'] as const,
  availableJobsAll: () => ['lawyer', 'available-jobs'] as const,
  availableJobs: (sort: string) => ['lawyer', 'available-jobs', sort] as const,
  job: (id: string) => ['lawyer', 'job', id] as const,
  projects: (status: 'pending' | 'completed') => ['lawyer', 'projects', status] as const,
  earnings: () => ['lawyer', 'earnings'] as const,
  payouts: () => ['lawyer', 'payouts'] as const,
  profile: (id: string, asAdmin: boolean) => ['lawyer', 'profile', id, asAdmin ? 'admin' : 'own'] as const,
  paymentDetails: () => ['lawyer', 'payment-details'] as const,
  /** A mutation's key: a withdrawal still on its way is found by the page opened again. */
  requestPayout: () => ['lawyer', 'request-payout'] as const,
};
