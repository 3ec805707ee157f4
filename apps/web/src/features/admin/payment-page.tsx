import { ComingSoon } from '@/components/coming-soon';

export default function Page() {
  return <ComingSoon title="Payment" what="The payments ledger is coming soon." />;
}
