import type { ShowcaseResponse } from '@legalmarket/contracts/showcase';
import { usePageData } from '@/lib/page-data';

/** GET /api/showcase, as src/early.ts asks for it for the landing page. */
export const SHOWCASE_URL = '/api/showcase';

/** Verified lawyers, jobs completed and featured products, counted by the server (decision 1830). */
export const useShowcase = () => usePageData<ShowcaseResponse>(SHOWCASE_URL);

const count = new Intl.NumberFormat('en-NG');

/** A figure of the showcase, or a dash while it is on its way (or could not be had). */
export function Figure({ value }: { value: number | undefined }) {
  return <>{value === undefined ? '–' : count.format(value)}</>;
}
