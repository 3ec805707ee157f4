import { ComingSoon } from '@/components/coming-soon';

export default function Page() {
  return <ComingSoon title="Product" what="Product details are coming soon." />;
}
