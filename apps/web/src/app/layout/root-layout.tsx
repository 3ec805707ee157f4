import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { Loading } from '@/components/loading';
import { SectionBoundary } from '@/components/section-boundary';
import { StepUpPrompt } from '@/components/step-up-prompt';
import { useMoveReservations } from '@/features/cart/use-move-reservations';
import { ChatButton } from './chat-button';
import { Footer } from './footer';
import { Navbar } from './navbar';

export function RootLayout() {
  // A visitor's reservations move into the cart once a company is signed in here (decision 1800).
  useMoveReservations();
  return (
    <div className="flex min-h-dvh flex-col">
      <Navbar />
      {/* At least a screen tall: the footer starts below the fold, so pages filling in never push it (CLS). */}
      <main id="main" className="min-h-dvh flex-1">
        <SectionBoundary>
          <Suspense fallback={<Loading />}>
            <Outlet />
          </Suspense>
        </SectionBoundary>
      </main>
      <Footer />
      <ChatButton />
      <StepUpPrompt />
    </div>
  );
}
