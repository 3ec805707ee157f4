import { ComingSoon } from '@/components/coming-soon';

export default function Page() {
  return <ComingSoon title="Projects" what="Your projects are coming soon." />;
}
