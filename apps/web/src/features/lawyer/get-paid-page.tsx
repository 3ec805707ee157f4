import { ComingSoon } from '@/components/coming-soon';

export default function Page() {
  return <ComingSoon title="Payment Details" what="Payout details are coming soon." />;
}
