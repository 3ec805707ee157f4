import { ComingSoon } from '@/components/coming-soon';

export default function Page() {
  return <ComingSoon title="Shop our products" what="The catalogue is coming soon." />;
}
