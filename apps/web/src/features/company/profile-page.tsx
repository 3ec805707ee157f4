import { ComingSoon } from '@/components/coming-soon';

export default function Page() {
  return <ComingSoon title="Company profile" what="Company profiles are coming soon." />;
}
