import { ComingSoon } from '@/components/coming-soon';

export default function Page() {
  return <ComingSoon title="LegalMarket" what="Coming soon." />;
}
