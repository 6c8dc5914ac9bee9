import type { MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { RouteErrorBoundary } from "~/components/error-page";
import { LegalPage, LegalSection } from "~/components/legal/legal-page";
import { Promised } from "~/components/legal/promised";
import { replicaReads } from "~/http/replica-reads";

export const handle = replicaReads;

export const meta: MetaFunction = () => [{ title: "Privacy Policy · BidYard" }];

/** What BidYard keeps about a person and why; the ID-document rules are docs/decisions/3303. */
export default function PrivacyPage() {
  const link = "text-brand-700 underline";
  return (
    <LegalPage title="Privacy Policy" updated="November 27, 2026">
      <p>
        This page says what BidYard keeps about you, who can see it, how long we keep it and how to
        have it deleted. We do not sell your data and do not show you third-party advertising.
      </p>

      <LegalSection id="privacy-kept" title="What we keep">
        <ul>
          <li>
            Your account: first and last name, e-mail address, phone number, account type (buyer or
            service provider), time zone and e-mail preferences. Your password is kept by the
            sign-in service, never by BidYard.
          </li>
          <li>
            Money: your deposit ledger (each deposit, refund and payment, with the payment
            provider&apos;s order number), invoices and transport charges. Card and bank details
            stay with the payment provider; we never see them.
          </li>
          <li>
            What you do here: bids, watched lots, saved searches, listings and their photos,
            messages with sellers and buyers, and what you send through the Contact page.
          </li>
          <li>
            <Promised id="privacy.address-limits" />
          </li>
        </ul>
      </LegalSection>

      <LegalSection id="privacy-id" title="Your ID document">
        <ul>
          <li>
            What we keep: the file you upload (a driver&apos;s licence, passport or state ID), its
            type, when you sent it, whether it was approved or rejected, the reason given and when.
          </li>
          <li>
            <Promised id="privacy.id-who-sees" /> <Promised id="privacy.id-short-link" />{" "}
            <Promised id="privacy.bidder-number" />
          </li>
          <li>
            How long: while your account is open, because it is how we know who bought a vehicle if
            a yard, a title office or the police asks. When your account is closed, or when you ask
            us to, the file is deleted within 30 days; we keep only the record that your identity
            was checked (the type, the dates and the decision).
          </li>
          <li>
            To ask for deletion: write to us on the{" "}
            <Link to="/contact?topic=privacy" className={link}>
              Contact
            </Link>{" "}
            page and choose &ldquo;Privacy, or deleting my data or ID document&rdquo;. Deleting the
            document ends your verification, so you cannot bid until you send a new one.
          </li>
        </ul>
      </LegalSection>

      <LegalSection id="privacy-who" title="Who else sees your data">
        <ul>
          <li>
            The payment provider (PayPal) processes deposits and payments. The yard sees the release
            you show it for a lot you won: your name and the pickup code.
          </li>
          <li>
            <Promised id="privacy.provider-no-contact" />
          </li>
          <li>
            <Promised id="privacy.messages-first-name" />
          </li>
        </ul>
      </LegalSection>

      <LegalSection id="privacy-mail" title="E-mail">
        <p>
          We e-mail you about money (won lots, receipts, payments due) and what you asked for
          (alerts, messages).{" "}
          <Promised
            id="privacy.mail-switches"
            values={{
              accountPage: (
                <Link to="/account" className={link}>
                  account page
                </Link>
              ),
            }}
          />
        </p>
      </LegalSection>

      <LegalSection id="privacy-rights" title="Seeing, correcting and deleting your data">
        <p>
          Ask us on the{" "}
          <Link to="/contact?topic=privacy" className={link}>
            Contact
          </Link>{" "}
          page for a copy of what we keep about you, to correct it, or to delete your account. We
          answer within 30 days. Money records (deposits, payments, invoices) are kept for seven
          years after the last payment, as tax law asks; everything else is deleted with the
          account.
        </p>
      </LegalSection>

      <LegalSection id="privacy-cookies" title="Cookies">
        <p>
          One cookie keeps you signed in; short-lived ones hold a sign-in in progress and carry a
          message from one page to the next. There are no tracking or advertising cookies.
        </p>
      </LegalSection>
    </LegalPage>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
