import { ComingSoon } from '@/components/coming-soon';

export default function Page() {
  return <ComingSoon title="Admin dashboard" what="The admin dashboard is coming soon." />;
}
