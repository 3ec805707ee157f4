import { ComingSoon } from '@/components/coming-soon';

export default function Page() {
  return <ComingSoon title="Job" what="Job details are coming soon." />;
}
