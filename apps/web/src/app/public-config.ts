import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/http';

export interface PublicConfig {
  supportPhone: string;
  supportEmail: string;
  paymentProvider: 'sandbox' | 'flutterwave';
}

const FALLBACK: PublicConfig = {
  supportPhone: '2348000000000',
  supportEmail: 'support@legalmarket.ng',
  paymentProvider: 'sandbox',
};

/** Server settings the pages need (support line for the chat button and contact pop-up). */
export function usePublicConfig(): PublicConfig {
  const q = useQuery({
    queryKey: ['public-config'],
    queryFn: () => api<PublicConfig>('/api/public-config'),
    staleTime: Infinity,
    retry: 1,
  });
  return q.data ?? FALLBACK;
}

export const whatsappLink = (phone: string, text?: string) =>
  `https://wa.me/${phone.replace(/\D/g, '')}${text ? `?text=${encodeURIComponent(text)}` : ''}`;
