/** Query keys of the admin area; mutations invalidate by prefix. */
export const adminKeys = {
  all: ['admin'] as const,
  dashboard: () => ['admin', 'dashboard'] as const,
  companies: (page: number) => ['admin', 'companies', page] as const,
  lawyers: (verified: boolean, page: number) => ['admin', 'lawyers', verified, page] as const,
  lawyersAll: () => ['admin', 'lawyers'] as const,
  lawyerRecords: (q: object) => ['admin', 'lawyers', 'records', q] as const,
  jobs: (tab: string, page: number) => ['admin', 'jobs', tab, page] as const,
  jobsAll: () => ['admin', 'jobs'] as const,
  job: (id: string) => ['admin', 'job', id] as const,
  payments: (q: object) => ['admin', 'payments', q] as const,
  settlement: () => ['admin', 'settlement'] as const,
  ratings: () => ['admin', 'ratings'] as const,
  remunerationOrder: () => ['admin', 'remuneration-order'] as const,
  payouts: () => ['admin', 'payouts'] as const,
};

export const PAGE_SIZE = 5;
