import type { JobViewResponse } from '@legalmarket/contracts/jobs';
import type { LawyerJob } from '@legalmarket/contracts/lawyers';

/**
 * A job as the API answers it, with nothing written to it yet. Tests pass what they look at; the
 * admin job modal and the lawyer dashboard tests share it so the answer's shape lives in one place.
 */
export function jobFixture(over: Partial<JobViewResponse> = {}): JobViewResponse {
  const person = { _id: 'x', name: 'x', officialEmail: '', phoneNumber: '' };
  return {
    _id: 'job-1',
    status: 'unassigned',
    productId: { _id: 'p', productName: 'A job', productImage: '', productPrice: 1000, productDescription: '' },
    companyId: { ...person, companyName: 'Ada Ventures Ltd' },
    quantity: 1,
    amount: 1000,
    detail: null,
    companyDetail: null,
    companyFile: null,
    companyFileName: null,
    lawyerRequestedDetail: null,
    adminDetail: null,
    adminFile: null,
    adminFileName: null,
    assignedTo: [],
    appliedLawer: [],
    createdAt: '2026-11-20T10:00:00.000Z',
    updatedAt: '2026-11-20T10:00:00.000Z',
    completedAt: null,
    ...over,
  };
}

/** A lawyer's own job as the dashboard lists it: `pending-1`, named "pending job 1", not applied for. */
export const lawyerJob = (status: 'pending' | 'completed', n: number): LawyerJob => ({
  ...jobFixture({
    _id: `${status}-${n}`,
    status,
    productId: {
      _id: 'p',
      productName: `${status} job ${n}`,
      productImage: '',
      productPrice: 1000,
      productDescription: '',
    },
  }),
  applied: false,
});
