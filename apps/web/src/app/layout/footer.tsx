import { useState } from 'react';
import { Link } from 'react-router';
import { paths } from '@/lib/paths';
import { ContactPopup } from '@/components/contact-popup';
import type { PublicConfig } from '@legalmarket/contracts/common';
import { usePublicConfig } from '@/lib/public-config';

const SOCIAL: Record<PublicConfig['socialLinks'][number]['network'], { short: string; name: string }> = {
  x: { short: 'X', name: 'X (Twitter)' },
  linkedin: { short: 'in', name: 'LinkedIn' },
  instagram: { short: 'IG', name: 'Instagram' },
  facebook: { short: 'f', name: 'Facebook' },
};

export function Footer() {
  const social = usePublicConfig().socialLinks;
  const [open, setOpen] = useState<'contact' | null>(null);
  const link = 'min-h-11 inline-flex items-center hover:underline';
  // Always below the first screen (the main area is a screen tall): laid out and painted as it comes near.
  return (
    <footer className="mt-16 bg-brand text-white [contain-intrinsic-size:auto_24rem] [content-visibility:auto]">
      <div className="mx-auto grid max-w-6xl gap-6 px-4 py-10 sm:grid-cols-3">
        <div>
          <p className="text-lg font-bold">LegalMarket</p>
          <p className="mt-2 text-sm text-white/80">
            Affordable, fixed-price legal services for Nigerian startups and small businesses.
          </p>
        </div>
        <nav aria-label="Footer" className="flex flex-col text-sm">
          <Link className={link} to={paths.about()}>
            About
          </Link>
          <button type="button" className={`${link} text-left`} onClick={() => setOpen('contact')}>
            Contact
          </button>
          <Link className={link} to={paths.terms()}>
            Terms of use
          </Link>
          <Link className={link} to={paths.privacy()}>
            Privacy policy
          </Link>
          <Link className={link} to={paths.remunerationOrder()}>
            Legal Practitioners Remuneration Order 2023
          </Link>
        </nav>
        {social.length > 0 && (
          // Only our own accounts, as the settings name them (GET /api/public-config); none set, none shown.
          <nav className="flex items-start gap-2" aria-label="Social links">
            {social.map(({ network, url }) => (
              <a
                key={network}
                href={url}
                aria-label={`LegalMarket on ${SOCIAL[network].name}`}
                target="_blank"
                rel="noopener noreferrer"
                className="flex size-11 items-center justify-center rounded-full border border-white/30 hover:bg-white/10"
              >
                <span aria-hidden className="text-sm font-bold">
                  {SOCIAL[network].short}
                </span>
              </a>
            ))}
          </nav>
        )}
      </div>
      <p className="border-t border-white/15 py-4 text-center text-xs text-white/70">
        © {new Date().getFullYear()} LegalMarket. All rights reserved.
      </p>
      <ContactPopup open={open === 'contact'} onClose={() => setOpen(null)} />
    </footer>
  );
}
