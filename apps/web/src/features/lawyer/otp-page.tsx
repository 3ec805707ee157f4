import { ComingSoon } from '@/components/coming-soon';

export default function Page() {
  return <ComingSoon title="Enter your code" what="Payout changes are coming soon." />;
}
