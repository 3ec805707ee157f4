import { ComingSoon } from '@/components/coming-soon';

export default function Page() {
  return <ComingSoon title="Clients" what="Company management is coming soon." />;
}
