import { ComingSoon } from '@/components/coming-soon';

export default function Page() {
  return <ComingSoon title="Lawyer profile" what="Lawyer profiles are coming soon." />;
}
