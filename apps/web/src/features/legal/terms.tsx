import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { TERMS_VERSION } from '@legalmarket/contracts/terms-version';
import { paths } from '@/lib/paths';
import { usePublicConfig } from '@/lib/public-config';

/**
 * Terms of use and privacy policy, carrying the terms of spec section 1 and what Nigeria's Data
 * Protection Act 2023 asks us to tell people (decision 2030). Shown in the sign-up modals (scrolling
 * box) and as the /terms and /privacy pages. A change of substance changes TERMS_VERSION.
 */
function Body({ page, label, children }: { page?: boolean; label: string; children: ReactNode }) {
  if (page) return <div className="space-y-3 wrap-anywhere">{children}</div>;
  return (
    // Focusable so a keyboard can scroll it (axe: scrollable-region-focusable).
    <div
      tabIndex={0}
      role="region"
      aria-label={label}
      className="max-h-[60vh] space-y-3 overflow-y-auto pr-1 wrap-anywhere"
    >
      {children}
    </div>
  );
}
const H = ({ children }: { children: ReactNode }) => <h3 className="pt-2 font-semibold text-ink">{children}</h3>;
const Version = () => <p className="text-xs text-slate-500">Version {TERMS_VERSION}</p>;

export function TermsOfUse({ page }: { page?: boolean }) {
  return (
    <Body page={page} label="Terms of use">
      <Version />
      <p>
        These terms govern your use of LegalMarket, a marketplace where businesses buy fixed-price legal services
        delivered by verified legal practitioners.
      </p>
      <H>Who may use LegalMarket</H>
      <p>You must be 18 years of age or older to use the service and to buy on behalf of a business.</p>
      <H>Prices and payment</H>
      <p>
        All prices and payments are in Naira (NGN). Payment is made by Visa or Mastercard card, mobile money or USSD
        through our card payment provider, Flutterwave. Taxes are included in the prices shown.
      </p>
      <p>All sales are final. Delivery of a service is 7-10 working days after purchase unless agreed otherwise.</p>
      <H>Lawyers on the platform</H>
      <p>
        A lawyer may not serve a company met on the platform outside the platform without first telling LegalMarket in
        writing.
      </p>
      <H>Your documents</H>
      <p>
        The documents you upload for a job are used only to deliver that job. They are opened only by the verified
        lawyer assigned to it and by LegalMarket staff. Lawyers keep them confidential as their professional rules
        require.
      </p>
      <H>Your data</H>
      <p>
        We handle personal data as Nigeria&apos;s Data Protection Act 2023 requires and as our{' '}
        {/* From a sign-up form's modal it opens beside the form, which stays as typed. */}
        <Link
          to={paths.privacy()}
          className="font-semibold text-brand underline"
          {...(page ? {} : { target: '_blank', rel: 'noopener' })}
        >
          Privacy policy
        </Link>{' '}
        explains. You may download your data or delete your account at any time from your profile.
      </p>
      <H>Liability</H>
      <p>Our liability for any claim is limited to the amount you paid us in the 6 months before the claim.</p>
      <H>Disputes</H>
      <p>Disputes are settled by an arbitration panel of 2 arbitrators sitting in Lagos.</p>
    </Body>
  );
}

export function PrivacyPolicy({ page }: { page?: boolean }) {
  const { supportEmail } = usePublicConfig();
  const mail = (
    <a href={`mailto:${supportEmail}`} className="font-semibold text-brand underline">
      {supportEmail}
    </a>
  );
  return (
    <Body page={page} label="Privacy policy">
      <Version />
      <p>
        LegalMarket decides how the personal data on this platform is used: we are its data controller under
        Nigeria&apos;s Data Protection Act 2023 (NDPA). Our data protection contact is {mail}.
      </p>
      <H>What we collect</H>
      <ul className="list-disc space-y-1 pl-5">
        <li>
          When you sign up: names, e-mail addresses, phone numbers, addresses, CAC and SCN registration numbers, and the
          version of these terms you accepted and when.
        </li>
        <li>The documents you upload, your job briefs and the messages on your jobs.</li>
        <li>
          Payments: what you bought, the amounts and the payment reference. Card details are entered on
          Flutterwave&apos;s page and never reach or stay on our servers.
        </li>
        <li>Lawyers: the bank account your earnings are paid to, and your earnings and payouts.</li>
        <li>Security records: sign-ins and the address they came from, kept to protect your account.</li>
      </ul>
      <H>Why, and on what basis</H>
      <p>
        To deliver the legal services you buy and pay lawyers for their work (our contract with you); to keep invoices,
        receipts and payment records for as long as tax and accounting law requires (a legal obligation); to keep the
        platform safe (our legitimate interest); and, for anything else, only with your consent, which you may withdraw.
        We never sell your data.
      </p>
      <H>What we do with documents</H>
      <p>
        A document you upload is stored under a random name and opened only by you, LegalMarket staff and the verified
        lawyer assigned to your job, through links that expire after 5 minutes. So that they can apply for your job,
        verified lawyers read its brief (what you and our staff wrote about the work), the names of its files and your
        company&apos;s name; they never open the files or the job&apos;s conversation unless they are assigned to it.
        Lawyers whose verification is not finished see only the service and its price. One company never sees another
        company&apos;s information. Documents are used only to deliver the job they were uploaded for; a document you
        uploaded but never attached to a job, a message or your cart is deleted a week after its upload.
      </p>
      <H>Who else handles your data</H>
      <p>
        Flutterwave (payments and lawyer payouts), our e-mail provider and our hosting and storage providers, each only
        for the service they give us and under contract. Where one of them processes data outside Nigeria, we rely on
        the safeguards the NDPA requires for such transfers.
      </p>
      <H>Your rights and how to use them</H>
      <p>The NDPA gives you the right to:</p>
      <ul className="list-disc space-y-1 pl-5">
        <li>
          <strong>get a copy of your data</strong> in a common, machine-readable format: on your profile, choose{' '}
          <em>Download my data</em>. You get one zip file with your profile, orders, jobs and their messages, reviews,
          payouts and every file you uploaded;
        </li>
        <li>
          <strong>have your data erased</strong>: on your profile, choose <em>Delete my account</em> and confirm with
          your password. Your name, e-mail addresses, phone, addresses, picture, bank details and the files only you
          need are erased (your name also from the other party&apos;s notifications and e-mails about your jobs
          together), and you are signed out everywhere; your e-mail address can sign up again. Invoices, receipts and
          payment records stay, without your name, because the law makes us keep them, and files you shared on a job
          stay with that job for the other party. An open job, earnings not yet paid out or a refund not yet received
          must be settled first: the page names what is still open;
        </li>
        <li>
          <strong>correct your data</strong>: on your profile, choose <em>Update your details</em>;
        </li>
        <li>
          <strong>object, restrict what we do, or withdraw your consent</strong>, and to be told about any decision made
          about you by automated means: write to {mail};
        </li>
        <li>
          <strong>complain to the Nigeria Data Protection Commission</strong> if you think we have not respected these
          rights.
        </li>
      </ul>
      <p>We answer requests sent by e-mail within 30 days, free of charge.</p>
      <H>Keeping your data safe</H>
      <p>
        Passwords are stored only as strong one-way hashes and sessions end at once when you log out. If a breach is
        likely to put your rights at risk, we tell the Nigeria Data Protection Commission within 72 hours and you
        without undue delay.
      </p>
      <p>
        The service is for people aged 18 or older. Payments are in Naira and all sales are final, as set out in the
        Terms of use.
      </p>
    </Body>
  );
}
