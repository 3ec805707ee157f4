import { and, eq } from 'drizzle-orm';
import { messages, type CompanyProfile } from '@legalmarket/contracts';
import type { Shared } from '../shared.js';
import { users } from '../../db/schema.js';
import { notFound } from '../../platform/errors.js';
import { toProfile } from '../profiles/mapper.js';

/** Company profiles as an admin reads them. */
export function createCompaniesService({ db }: Pick<Shared, 'db'>) {
  return {
    /** A company's profile; 404 when the id is not a company. */
    async profile(id: string): Promise<CompanyProfile> {
      const [row] = await db
        .select()
        .from(users)
        .where(and(eq(users.id, id), eq(users.userType, 'company')))
        .limit(1);
      if (!row) throw notFound(messages.companyNotFound);
      return toProfile(row) as CompanyProfile;
    },
  };
}

export type CompaniesService = ReturnType<typeof createCompaniesService>;
