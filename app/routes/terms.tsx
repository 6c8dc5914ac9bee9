import type { MetaFunction, LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { RouteErrorBoundary } from "~/components/error-page";
import { LegalPage, LegalSection } from "~/components/legal/legal-page";
import { Promised } from "~/components/legal/promised";
import { PenaltyTerms } from "~/components/purchases/penalty-terms";
import { env } from "~/platform/env.server";
import { MAX_DEPOSIT_CENTS, MIN_DEPOSIT_CENTS } from "~/services/deposits/rules";
import { penaltyTerms } from "~/services/purchases/penalties";
import { loadTerms } from "~/services/purchases/schedules.server";
import { formatUsd } from "~/utils/money";
import { promiseText } from "~/services/legal/promises";
import { guardLoader } from "~/http/route-guards.server";
import { replicaReads } from "~/http/replica-reads";

export const meta: MetaFunction = () => [{ title: "Terms of Service · BidYard" }];

export const loader = (args: LoaderFunctionArgs) => guardLoader(args, load);
export const handle = replicaReads;

/**
 * The figures come from the same settings the charges use (the payment terms an admin edits,
 * the deposit rules, the platform fee), so the terms cannot promise one thing and charge
 * another (docs/decisions/3302).
 */
async function load() {
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
            <Promised
              id="terms.verified-identity"
              values={{
                identityVerification: (
                  <Link to="/kyc-verification" className={link}>
                    identity verification
                  </Link>
                ),
              }}
            />
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
            <Promised id="terms.minimum-deposit" values={{ minimumDeposit }} />{" "}
            <Promised id="terms.maximum-payment" values={{ maximumDeposit }} />{" "}
            <Promised id="terms.credit-captured" />
          </li>
          <li>
            <Promised id="terms.buying-power" /> <Promised id="terms.bid-above-buying-power" />{" "}
            <Promised id="terms.outbid-frees" />
          </li>
          <li>
            <Promised
              id="terms.refund-available"
              values={{
                deposit: (
                  <Link to="/deposit" className={link}>
                    deposit
                  </Link>
                ),
              }}
            />{" "}
            <Promised id="terms.refund-same-way" />
          </li>
          <li>
            <Promised id="terms.held-not-refundable" />
          </li>
        </ul>
      </LegalSection>

      <LegalSection id="terms-bidding" title="3. Bids are binding">
        <ul>
          <li>
            A bid is a promise to buy at that price if you win. It cannot be withdrawn.{" "}
            <Promised id="terms.proxy-bids" />
          </li>
          <li>
            <Promised id="terms.soft-close" /> <Promised id="terms.highest-maximum-wins" />
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
          and a broker fee. <Promised id="terms.all-in-total" /> Membership plans and transport are
          priced where you buy them, before you pay.
        </p>
      </LegalSection>

      <LegalSection id="terms-paying" title="5. Paying, penalties and default">
        <ul>
          <li>
            <Promised
              id="terms.invoice-due"
              values={{ dueBusinessDays, days: dueBusinessDays === 1 ? "day" : "days" }}
            />
          </li>
          <li>
            <Promised id="terms.pay-ways" /> <Promised id="terms.release" />
          </li>
        </ul>
        <PenaltyTerms terms={penalties} heading={promiseText("terms.penalties")} />
        <p>
          <Promised id="terms.default-when" /> <Promised id="terms.default-fee" /> Repeated defaults
          may close your account.
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
            <Promised id="terms.membership-period" />
          </li>
          <li>
            <Promised id="terms.transport-paid" /> If no provider can carry it, write to us and an
            admin refunds it. <Promised id="terms.transport-paid-once" />
          </li>
        </ul>
      </LegalSection>

      <LegalSection id="terms-providers" title="7. Service providers">
        <p>
          <Promised id="terms.provider-review" /> <Promised id="terms.first-claim-wins" />{" "}
          <Promised id="terms.provider-earnings" values={{ platformFeePercent }} />
        </p>
      </LegalSection>

      <LegalSection id="terms-conduct" title="8. What is not allowed">
        <ul>
          <li>Bidding to raise a price for someone else, or bidding with no intent to pay.</li>
          <li>Listing a vehicle you do not own or may not sell, or hiding known damage.</li>
          <li>
            <Promised id="terms.reported-messages" />
          </li>
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
