import { ComingSoon } from '@/components/coming-soon';

export default function Page() {
  return <ComingSoon title="Your Selections" what="The cart is coming soon." />;
}
