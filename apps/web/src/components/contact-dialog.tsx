import { Mail, MessageCircle } from 'lucide-react';
import { Modal } from '@/components/modal';
import { usePublicConfig, whatsappLink } from '@/lib/public-config';

/** Contact pop-up: Send an Email or Speak to an Agent (loaded when first opened: components/contact-popup). */
export default function ContactDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const cfg = usePublicConfig();
  return (
    <Modal open={open} onClose={onClose} title="Contact us">
      <p className="mb-4">How would you like to reach us?</p>
      <div className="grid gap-3 sm:grid-cols-2">
        <a
          href={`mailto:${cfg.supportEmail}`}
          className="flex min-h-11 items-center justify-center gap-2 rounded-md border border-brand px-4 py-3 font-semibold text-brand hover:bg-brand/5"
        >
          <Mail className="size-5" aria-hidden /> Send an Email
        </a>
        <a
          href={whatsappLink(cfg.supportPhone, 'Hello LegalMarket, I would like to speak to an agent.')}
          target="_blank"
          rel="noopener noreferrer"
          className="flex min-h-11 items-center justify-center gap-2 rounded-md bg-brand px-4 py-3 font-semibold text-white hover:bg-brand-dark"
        >
          <MessageCircle className="size-5" aria-hidden /> Speak to an Agent
        </a>
      </div>
    </Modal>
  );
}
