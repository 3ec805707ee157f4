import { ComingSoon } from '@/components/coming-soon';

export default function Page() {
  return <ComingSoon title="Assign job" what="Job assignment is coming soon." />;
}
