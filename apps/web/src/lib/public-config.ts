import { useEffect, useState } from 'react';
import type { PublicConfig } from '@legalmarket/contracts/common';
import { UPLOAD_MAX_BYTES } from '@legalmarket/contracts/constants';
import { api } from '@/lib/http';

const FALLBACK: PublicConfig = {
  supportPhone: '2348000000000',
  supportEmail: 'support@legalmarket.ng',
  paymentProvider: 'sandbox',
  socialLinks: [],
  uploadMaxBytes: UPLOAD_MAX_BYTES,
};
let loaded: PublicConfig | null = null;
let pending: Promise<PublicConfig> | null = null;

function load(): Promise<PublicConfig> {
  pending ??= api<PublicConfig>('/api/public-config')
    // A server from before a setting answers without it: the default stands in.
    .then((c) => (loaded = { ...FALLBACK, ...c }))
    .catch(() => {
      pending = null; // try again on the next page
      return FALLBACK;
    });
  return pending;
}

/** Server settings the pages need (support line for the chat button, Contact pop-up and job chat links), fetched once. */
export function usePublicConfig(): PublicConfig {
  const [cfg, setCfg] = useState<PublicConfig>(loaded ?? FALLBACK);
  useEffect(() => {
    if (loaded) return;
    let live = true;
    void load().then((c) => live && setCfg(c));
    return () => {
      live = false;
    };
  }, []);
  return cfg;
}

/**
 * The upload limits as the server last told them (decision 2311), read when a file is picked. The
 * layout's own usePublicConfig loads them; a picker fetching on its own would add a call to every form.
 */
export function currentUploadLimits(): PublicConfig['uploadMaxBytes'] {
  return (loaded ?? FALLBACK).uploadMaxBytes;
}

export const whatsappLink = (phone: string, text?: string) =>
  `https://wa.me/${phone.replace(/\D/g, '')}${text ? `?text=${encodeURIComponent(text)}` : ''}`;
