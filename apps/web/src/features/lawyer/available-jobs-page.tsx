import { ComingSoon } from '@/components/coming-soon';

export default function Page() {
  return <ComingSoon title="Available Jobs" what="Available jobs are coming soon." />;
}
