import { MessageCircle } from 'lucide-react';
import { usePublicConfig, whatsappLink } from '@/lib/public-config';

/** The floating chat button from tablet width up (phones have it in the top bar): a WhatsApp chat with the support line. */
export function ChatButton() {
  const cfg = usePublicConfig();
  return (
    <a
      href={whatsappLink(cfg.supportPhone, 'Hello LegalMarket, I need help.')}
      target="_blank"
      rel="noopener noreferrer"
      aria-label="Chat with LegalMarket support on WhatsApp"
      className="fixed right-4 bottom-4 z-40 hidden size-14 md:flex items-center justify-center rounded-full bg-emerald-600 text-white shadow-lg hover:bg-emerald-700"
    >
      <MessageCircle className="size-7" aria-hidden />
    </a>
  );
}
