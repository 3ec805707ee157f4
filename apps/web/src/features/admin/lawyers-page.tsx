import { ComingSoon } from '@/components/coming-soon';

export default function Page() {
  return <ComingSoon title="Lawyers" what="Lawyer management is coming soon." />;
}
