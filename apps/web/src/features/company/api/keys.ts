/** Query keys of the company area; the arrays stay as the cart's invalidation after payment expects. */
export const companyKeys = {
  jobsAll: () => ['company-jobs'] as const,
  jobs: (tab: string) => ['company-jobs', tab] as const,
  orders: () => ['company-orders'] as const,
  refunds: () => ['company-refunds'] as const,
  profileAll: (companyId: string) => ['company-profile', companyId] as const,
  profile: (companyId: string, mode: 'admin' | 'own') => ['company-profile', companyId, mode] as const,
};
