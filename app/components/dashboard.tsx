import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { BuyingPowerFigure } from "~/components/auctions/buying-power";
import type { PublicUser } from "~/services/accounts/users.server";
import type { BiddingEligibility } from "~/services/auctions/eligibility";
import type { IdentityStatus } from "~/services/kyc/status";
import type { NextStep } from "~/services/accounts/next-steps";
import { LocalTime } from "~/components/local-time";
import { formatUsd } from "~/utils/money";

// The one money formatter, re-exported for the dashboard's callers.
export { formatUsd };

const LINKS = [
  { to: "/auctions", title: "Live Auctions", body: "Bid on Copart and IAAI lots" },
  { to: "/community-vehicles", title: "Community Vehicles", body: "Buy from other sellers" },
  { to: "/membership", title: "Membership", body: "Unlimited listings and more" },
  { to: "/post-vehicle", title: "Post a Vehicle", body: "List your vehicle for sale" },
];

const BUYER_TOOLS = [
  { to: "/my-auctions", title: "My auctions" },
  { to: "/my-auctions#won", title: "Won vehicles" },
  { to: "/favorites", title: "Favorites" },
  { to: "/saved-searches", title: "Saved searches" },
  { to: "/messages", title: "Messages" },
  { to: "/notifications", title: "Notifications" },
];

export function Dashboard({
  user,
  activeBids,
  available,
  identity,
  eligibility,
  firstVisit = false,
  hasBid = false,
  steps = [],
  buyerSteps = true,
}: {
  /** false for a provider who does not buy: no buying power, verification or bid cards (3533) */
  buyerSteps?: boolean;
  /** has bid before (a winner among them): no "before your first bid" (record 3551) */
  hasBid?: boolean;
  user: PublicUser;
  /** the first time this person sees the dashboard: greeted as a first visit (record 3306) */
  firstVisit?: boolean;
  /** what to do next, most pressing first (verify, deposit how much, provider, invoices) */
  steps?: NextStep[];
  activeBids: number;
  /** The buying power: the deposit minus what leading bids and unpaid invoices (bid and fees) hold. */
  available: string;
  /** Where identity verification stands and whether bidding is open (docs/decisions/2704). */
  identity: IdentityStatus;
  eligibility: BiddingEligibility;
}) {
  const isAdmin = user.role === "admin";
  return (
    <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6">
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-bold sm:text-3xl">
          {firstVisit ? "Welcome to BidYard, " : "Welcome back, "}
          {user.firstName?.trim() || user.email}!
        </h1>
        {isAdmin ? (
          <span className="rounded-full bg-brand-700 px-3 py-1 text-xs font-bold text-white">
            Admin
          </span>
        ) : null}
      </div>

      {isAdmin ? (
        <section
          aria-labelledby="admin-controls"
          className="mt-6 rounded-xl border border-brand-100 bg-brand-50 p-5"
        >
          <h2 id="admin-controls" className="text-lg font-semibold">
            Admin Controls
          </h2>
          <p className="mt-1 text-sm text-slate-600">
            Review users, early-access signups and identity documents.
          </p>
          <Link
            to="/admin"
            className="mt-3 inline-flex rounded-md bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800"
          >
            Open Admin Dashboard
          </Link>
        </section>
      ) : null}

      {firstVisit ? (
        <p className="mt-2 text-slate-700" data-testid="first-visit-note">
          {hasBid
            ? "Your account is ready. Your bids and won vehicles are under My auctions."
            : !buyerSteps
              ? "Your account is ready. Here is what to do next."
              : steps.length > 0
                ? "Your account is ready. Here is what to do before your first bid."
                : "Your account is ready: you can bid now."}
        </p>
      ) : null}

      {steps.length > 0 ? (
        <section
          aria-labelledby="next-steps"
          className="mt-6 rounded-xl border border-amber-200 bg-amber-50 p-5"
        >
          <h2 id="next-steps" className="text-lg font-semibold">
            What to do next
          </h2>
          <ol className="mt-2 space-y-3">
            {steps.map((step) => (
              <li key={step.key} data-testid={`next-step-${step.key}`} className="text-sm">
                <span className="block font-semibold text-slate-900">{step.title}</span>
                <span className="block text-slate-700">
                  {step.text}
                  {step.dueAt ? (
                    <>
                      {" "}
                      The next is due by <LocalTime at={step.dueAt} />.
                    </>
                  ) : null}
                </span>
                <Link to={step.link.to} className="font-semibold text-brand-700 underline">
                  {step.link.label}
                </Link>
              </li>
            ))}
          </ol>
        </section>
      ) : null}

      {buyerSteps ? null : (
        <p className="mt-6 text-sm text-slate-600" data-testid="buying-too">
          Buying at auction too? Start with{" "}
          <Link to="/kyc-verification" className="text-brand-700 underline">
            identity verification
          </Link>
          .
        </p>
      )}
      {buyerSteps ? (
        <div className="mt-6 grid gap-4 sm:grid-cols-3">
          <Card
            title="Account Balance"
            value={formatUsd(user.deposit)}
            note={
              <>
                <BuyingPowerFigure available={available} />
                <span className="mt-1 block font-semibold" data-testid="bidding-status">
                  {eligibility.label}
                </span>
              </>
            }
          />
          <Card
            title="Verification Status"
            value={identity.label}
            note={
              <>
                <span data-testid="identity-detail">{identity.detail}</span>
                {identity.state === "verified" ? null : (
                  <>
                    {" "}
                    <Link to="/kyc-verification" className="text-brand-700 underline">
                      {identity.state === "pending"
                        ? "See your verification"
                        : "Verify your identity"}
                    </Link>
                  </>
                )}
              </>
            }
          />
          <Card
            title="Active Bids"
            value={String(activeBids)}
            note={
              <Link to="/my-auctions#bidding" className="text-brand-700 underline">
                Auctions you&apos;re bidding on
              </Link>
            }
          />
        </div>
      ) : null}

      <ul className="mt-8 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {LINKS.map((link) => (
          <li key={link.to}>
            <Link
              to={link.to}
              className="block h-full rounded-xl border border-slate-200 bg-white p-5 shadow-sm hover:border-brand-600"
            >
              <span className="block font-semibold">{link.title}</span>
              <span className="mt-1 block text-sm text-slate-600">{link.body}</span>
            </Link>
          </li>
        ))}
      </ul>
      <nav aria-label="Buyer tools" className="mt-6 flex flex-wrap gap-x-6 gap-y-2 text-sm">
        {BUYER_TOOLS.map((link) => (
          <Link key={link.to} to={link.to} className="font-semibold text-brand-700 underline">
            {link.title}
          </Link>
        ))}
      </nav>
    </div>
  );
}

function Card({ title, value, note }: { title: string; value: string; note: ReactNode }) {
  return (
    <section
      aria-label={title}
      className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <h2 className="text-sm font-semibold text-slate-500">{title}</h2>
      <p className="mt-2 text-2xl font-bold">{value}</p>
      <div className="mt-1 text-sm text-slate-500">{note}</div>
    </section>
  );
}
