/** Terms of use and privacy policy, carrying the terms of spec section 1. */
export function TermsOfUse() {
  return (
    // Focusable so a keyboard can scroll it (axe: scrollable-region-focusable).
    <div tabIndex={0} role="region" aria-label="Terms of use" className="max-h-[60vh] space-y-3 overflow-y-auto pr-1">
      <p>
        These terms govern your use of LegalMarket, a marketplace where businesses buy fixed-price legal services
        delivered by verified legal practitioners.
      </p>
      <h3 className="font-semibold">Who may use LegalMarket</h3>
      <p>You must be 18 years of age or older to use the service and to buy on behalf of a business.</p>
      <h3 className="font-semibold">Prices and payment</h3>
      <p>
        All prices and payments are in Naira (NGN). Payment is made by Visa or Mastercard card, mobile money or USSD
        through our card payment provider, Flutterwave. Taxes are included in the prices shown.
      </p>
      <p>All sales are final. Delivery of a service is 7-10 working days after purchase unless agreed otherwise.</p>
      <h3 className="font-semibold">Lawyers on the platform</h3>
      <p>
        A lawyer may not serve a company met on the platform outside the platform without first telling LegalMarket in
        writing.
      </p>
      <h3 className="font-semibold">Liability</h3>
      <p>Our liability for any claim is limited to the amount you paid us in the 6 months before the claim.</p>
      <h3 className="font-semibold">Disputes</h3>
      <p>Disputes are settled by an arbitration panel of 2 arbitrators sitting in Lagos.</p>
    </div>
  );
}

export function PrivacyPolicy() {
  return (
    <div tabIndex={0} role="region" aria-label="Privacy policy" className="max-h-[60vh] space-y-3 overflow-y-auto pr-1">
      <p>
        We collect the details you give us when you sign up (names, email addresses, phone numbers, addresses,
        registration numbers) and the documents you upload, to deliver the legal services you buy.
      </p>
      <p>
        Your documents are shared only with the LegalMarket staff and the verified lawyer assigned to your job. One
        company never sees another company's information.
      </p>
      <p>Card details are entered on our payment provider's page and never reach or stay on our servers.</p>
      <p>
        The service is for people aged 18 or older. Payments are in Naira and all sales are final, as set out in the
        Terms of use.
      </p>
      <p>You may ask us to correct or delete your information by writing to our support address.</p>
    </div>
  );
}
