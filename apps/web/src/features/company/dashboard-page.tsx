import { ComingSoon } from '@/components/coming-soon';

export default function Page() {
  return <ComingSoon title="Your jobs" what="Your jobs will be listed here once you have bought a service." />;
}
