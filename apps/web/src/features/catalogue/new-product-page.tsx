import { ComingSoon } from '@/components/coming-soon';

export default function Page() {
  return <ComingSoon title="Create a product" what="Product creation is coming soon." />;
}
