import { ComingSoon } from '@/components/coming-soon';

export default function Page() {
  return <ComingSoon title="Jobs" what="Job management is coming soon." />;
}
