import type { MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { RouteErrorBoundary } from "~/components/error-page";
import { LegalPage, LegalSection } from "~/components/legal/legal-page";
import { PenaltyTerms } from "~/components/purchases/penalty-terms";
import { env } from "~/platform/env.server";
import { MAX_DEPOSIT_CENTS, MIN_DEPOSIT_CENTS } from "~/services/deposits/rules";
import { penaltyTerms } from "~/services/purchases/penalties";
import { loadTerms } from "~/services/purchases/schedules.server";
import { formatUsd } from "~/utils/money";

export const meta: MetaFunction = () => [{ title: "Terms of Service · BidYard" }];

/**
 * The figures come from the same settings the charges use (the payment terms an admin edits,
 * the deposit rules, the platform fee), so the terms cannot promise one thing and charge
 * another (docs/decisions/3302).
 */
export async function loader() {
  const terms = await loadTerms();
  return {
    penalties: penaltyTerms(terms),
    dueBusinessDays: terms.dueBusinessDays,
    minimumDeposit: formatUsd(MIN_DEPOSIT_CENTS, "cents"),
    maximumDeposit: formatUsd(MAX_DEPOSIT_CENTS, "cents"),
    platformFeePercent: env().PLATFORM_FEE_PERCENT,
  };
}

export default function TermsPage() {
  const { penalties, dueBusinessDays, minimumDeposit, maximumDeposit, platformFeePercent } =
    useLoaderData<typeof loader>();
  const link = "text-brand-700 underline";
  return (
    <LegalPage title="Terms of Service" updated="November 27, 2026">
      <p>
        These terms are the agreement between you and BidYard when you use this site to bid on
        vehicles from Copart and IAAI, to buy or sell in the community marketplace, or to carry
        vehicles as a service provider. Creating an account means you accept them. They are written
        to be read: the figures below are the ones the site charges today.
      </p>

      <LegalSection id="terms-account" title="1. Your account">
        <ul>
          <li>
            You must be at least 18 and give your real name. One person, one account; do not share
            your sign-in.
          </li>
          <li>
            Bidding needs a verified identity: you send a driver&apos;s licence, passport or state
            ID on the{" "}
            <Link to="/kyc-verification" className={link}>
              identity verification
            </Link>{" "}
            page and an admin approves it (usually within 24 hours) or tells you why not.
          </li>
          <li>
            Sellers list only vehicles they may sell and describe them truthfully. Providers carry
            only vehicles they are insured and licensed to carry.
          </li>
        </ul>
      </LegalSection>

      <LegalSection id="terms-deposit" title="2. Deposits and buying power">
        <ul>
          <li>
            Bidding needs at least {minimumDeposit} on deposit. One payment can add at most{" "}
            {maximumDeposit}. We credit exactly what the payment provider says it captured.
          </li>
          <li>
            Your buying power is your deposit minus what it already backs: your maximum bids on lots
            you are winning and your unpaid invoices. A bid (or a proxy maximum) above your buying
            power is refused. Being outbid frees that amount at once.
          </li>
          <li>
            Refunds: you can ask for the part of your deposit that backs nothing (your buying power)
            back at any time on the{" "}
            <Link to="/deposit" className={link}>
              deposit
            </Link>{" "}
            page. It is refunded to the payment method you paid with, through the same payment
            provider; your bank may take a few business days to show it.
          </li>
          <li>
            What is held for a lot you lead or an invoice you owe cannot be refunded until that lot
            is lost or the invoice is paid.
          </li>
        </ul>
      </LegalSection>

      <LegalSection id="terms-bidding" title="3. Bids are binding">
        <ul>
          <li>
            A bid is a promise to buy at that price if you win. It cannot be withdrawn. A proxy
            maximum bids for you, only as much as needed to keep you ahead.
          </li>
          <li>
            A bid in a lot&apos;s last two minutes extends it by two minutes. The highest maximum
            wins; on a tie, the earlier bid.
          </li>
          <li>
            Vehicles are sold as is, where is, as the auction house describes them. Salvage titles
            may limit where a vehicle can be registered; check your state&apos;s rules before you
            bid.
          </li>
        </ul>
      </LegalSection>

      <LegalSection id="terms-fees" title="4. Fees">
        <p>
          A won lot&apos;s invoice adds to the hammer price: a buyer fee (tiered by sale price, one
          schedule for clean titles and one for the rest), an internet-bid fee (tiered), a gate fee
          and a broker fee. Every lot page shows the all-in total in dollars before you bid, from
          the same schedule the invoice uses. Membership plans and transport are priced where you
          buy them, before you pay.
        </p>
      </LegalSection>

      <LegalSection id="terms-paying" title="5. Paying, penalties and default">
        <ul>
          <li>
            The invoice is due {dueBusinessDays} business {dueBusinessDays === 1 ? "day" : "days"}{" "}
            after the sale, at the end of the yard&apos;s business day; the invoice shows the exact
            time in your time zone.
          </li>
          <li>
            You can pay from your deposit, through the payment gateway, or both. A paid invoice gets
            a release with a pickup code for the yard.
          </li>
        </ul>
        <PenaltyTerms terms={penalties} heading="What paying late, not paying and storage cost" />
        <p>
          Default: once an invoice is unpaid past its due date and the grace days above, an admin
          may cancel the sale. The default fee is then taken from your deposit, the rest of what was
          held for that lot is released back to your buying power, and the lot is relisted or
          closed. Repeated defaults may close your account.
        </p>
      </LegalSection>

      <LegalSection id="terms-refunds" title="6. Refunds and cancelled sales">
        <ul>
          <li>Deposits: as in section 2.</li>
          <li>
            Paid invoices are not refunded because you changed your mind. If the yard cannot release
            the vehicle (a title problem, a vehicle that is not there), write to us through the{" "}
            <Link to="/contact" className={link}>
              Contact
            </Link>{" "}
            page: an admin refunds what you paid for it, to the way you paid.
          </li>
          <li>
            Memberships are paid for a period ahead and stay active to its end when cancelled; a
            free trial charges nothing.
          </li>
          <li>
            Transport is paid when you confirm the order. If no provider can carry it, write to us
            and an admin refunds it. A transport payment made twice is kept in your deposit, where
            you can take it back as in section 2.
          </li>
        </ul>
      </LegalSection>

      <LegalSection id="terms-providers" title="7. Service providers">
        <p>
          Providers apply with their company details and licence; an admin approves or rejects the
          application. An approved provider claims open orders; the first claim wins. On completion
          the provider earns the order&apos;s price less the platform fee of {platformFeePercent}%.
        </p>
      </LegalSection>

      <LegalSection id="terms-conduct" title="8. What is not allowed">
        <ul>
          <li>Bidding to raise a price for someone else, or bidding with no intent to pay.</li>
          <li>Listing a vehicle you do not own or may not sell, or hiding known damage.</li>
          <li>Abusive or misleading messages; reported messages are read by an admin.</li>
        </ul>
        <p>
          An admin may refuse a listing, a message or an application that breaks these terms, and
          may cancel an unpaid sale as in section 5. Money on deposit that backs nothing stays yours
          and can be taken back as in section 2.
        </p>
      </LegalSection>

      <LegalSection id="terms-changes" title="9. Changes">
        <p>
          When these terms change, the date above changes. The fees and penalties that apply to a
          lot you won are those its invoice names. Your personal data is covered by our{" "}
          <Link to="/privacy" className={link}>
            Privacy Policy
          </Link>
          .
        </p>
      </LegalSection>
    </LegalPage>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
