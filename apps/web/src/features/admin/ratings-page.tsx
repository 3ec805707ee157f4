import { ComingSoon } from '@/components/coming-soon';

export default function Page() {
  return <ComingSoon title="Ratings" what="Ratings management is coming soon." />;
}
