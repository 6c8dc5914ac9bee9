import { REVIEW_TIME } from "~/services/kyc/status";
import { Form, Link } from "@remix-run/react";
import { MIN_DEPOSIT_CENTS } from "~/services/deposits/rules";
import { formatUsd } from "~/utils/money";
import { DialogLink } from "./shell-dialogs";
import { Countdown } from "~/components/auctions/countdown";
import type { LandingLot } from "~/services/auctions/lots.server";

const FEATURES = [
  {
    title: "Live Auctions",
    body: "Bid in real time or set a proxy maximum on Copart and IAAI lots, with countdowns from the auction clock.",
    icon: "M12 8v4l3 2m6-2a9 9 0 1 1-18 0 9 9 0 0 1 18 0Z",
  },
  {
    title: "Verified Identities",
    body: `Every bidder verifies a government ID before bidding, reviewed by our team, ${REVIEW_TIME}. Community sellers who have done the same carry an “ID verified” badge on their listings.`,
    icon: "M9 12l2 2 4-4m5.6-4.1A12 12 0 0 1 12 2.9a12 12 0 0 1-8.6 3 12 12 0 0 0 8.6 15.2 12 12 0 0 0 8.6-15.2Z",
  },
  {
    title: "Best Prices",
    body: "Salvage, clean-title and run-and-drive vehicles well below retail, with estimated values on every lot.",
    icon: "M12 8c-1.7 0-3 .9-3 2s1.3 2 3 2 3 .9 3 2-1.3 2-3 2m0-8c1.1 0 2.1.4 2.6 1M12 8V7m0 1v8m0 0v1m0-1c-1.1 0-2.1-.4-2.6-1M21 12a9 9 0 1 1-18 0 9 9 0 0 1 18 0Z",
  },
  {
    title: "Global Access",
    body: "Approved providers ship across the US or export to ports worldwide once you win.",
    icon: "M3.1 9h17.8M3.1 15h17.8M12 3a15 15 0 0 1 0 18m0-18a15 15 0 0 0 0 18m9-9a9 9 0 1 1-18 0 9 9 0 0 1 18 0Z",
  },
];

const MAKES = ["Ford", "Chevrolet", "Toyota", "Honda", "Nissan", "BMW", "Tesla", "Jeep"];

export function LandingPage({ lots, serverTime }: { lots: LandingLot[]; serverTime: string }) {
  return (
    <>
      <section className="relative overflow-hidden bg-gradient-to-br from-brand-800 via-brand-700 to-slate-900 text-white">
        <div className="mx-auto grid max-w-7xl gap-10 px-4 py-14 sm:px-6 lg:grid-cols-[1.3fr_1fr] lg:py-20">
          <div>
            <p className="inline-flex rounded-full bg-white/10 px-3 py-1 text-xs font-semibold uppercase tracking-wider text-accent-500">
              300,000+ vehicles · No dealer licence needed
            </p>
            <h1 className="mt-4 text-4xl font-black leading-tight sm:text-5xl">
              Find your next car at auction price
            </h1>
            <p className="mt-4 max-w-xl text-lg text-blue-100">
              Bid on used and salvage vehicles from Copart and IAAI, or buy straight from sellers in
              our community marketplace.
            </p>
            <div className="mt-6 flex flex-wrap gap-3">
              <HeroLink to="/community-vehicles" label="Buy It Now" primary />
              <HeroLink to="/community-vehicles?condition=excellent" label="Clean Title" />
              <HeroLink to="/auctions" label="Auction Today" />
            </div>
            <Form
              method="get"
              action="/community-vehicles"
              className="mt-8 grid gap-2 rounded-xl bg-white p-3 text-slate-900 shadow-lg sm:grid-cols-[1fr_1fr_auto]"
              aria-label="Quick vehicle search"
            >
              <label className="flex flex-col text-xs font-semibold text-slate-600">
                Make
                <select
                  name="make"
                  className="mt-1 rounded-md border border-slate-300 px-2 py-2 text-sm text-slate-900"
                >
                  <option value="">Any make</option>
                  {MAKES.map((make) => (
                    <option key={make}>{make}</option>
                  ))}
                </select>
              </label>
              <label className="flex flex-col text-xs font-semibold text-slate-600">
                Model or keyword
                <input
                  name="search"
                  placeholder="e.g. Camry, F-150"
                  className="mt-1 rounded-md border border-slate-300 px-2 py-2 text-sm text-slate-900"
                />
              </label>
              <button
                type="submit"
                className="self-end rounded-md bg-accent-500 px-5 py-2.5 font-semibold text-slate-900 hover:bg-accent-600"
              >
                Search
              </button>
            </Form>
          </div>
          <div className="rounded-2xl bg-white p-6 text-slate-900 shadow-xl">
            <h2 className="text-2xl font-bold">Start Bidding Today</h2>
            <p className="mt-2 text-slate-600">
              Sign in with your e-mail, verify your ID and place a refundable deposit to start
              bidding.
            </p>
            <Form method="get" action="/api/login" className="mt-5 space-y-3" noValidate>
              <label className="block text-sm font-semibold" htmlFor="start-email">
                E-mail address
              </label>
              <input
                id="start-email"
                name="login_hint"
                type="email"
                autoComplete="email"
                placeholder="you@example.com"
                className="w-full rounded-md border border-slate-300 px-3 py-2"
              />
              <button
                type="submit"
                className="w-full rounded-md bg-brand-700 px-4 py-2.5 font-semibold text-white hover:bg-brand-800"
              >
                Sign In
              </button>
            </Form>
            <FirstBidSteps />
          </div>
        </div>
      </section>

      {lots.length > 0 ? <ClosingSoon lots={lots} serverTime={serverTime} /> : null}

      <section className="mx-auto max-w-7xl px-4 py-14 sm:px-6" aria-labelledby="why-heading">
        <h2 id="why-heading" className="text-center text-3xl font-bold">
          Why choose BidYard
        </h2>
        <ul className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {FEATURES.map((feature) => (
            <li
              key={feature.title}
              className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm"
            >
              <svg
                aria-hidden="true"
                viewBox="0 0 24 24"
                className="h-10 w-10 rounded-lg bg-brand-50 p-2 text-brand-700"
                fill="none"
                stroke="currentColor"
                strokeWidth={1.8}
                strokeLinecap="round"
                strokeLinejoin="round"
              >
                <path d={feature.icon} />
              </svg>
              <h3 className="mt-4 text-lg font-semibold">{feature.title}</h3>
              <p className="mt-2 text-sm text-slate-600">{feature.body}</p>
            </li>
          ))}
        </ul>
      </section>

      {/* its colour runs down to the footer: no empty band between them (record 3307) */}
      <section className="-mb-16 bg-brand-50 pb-16">
        <div className="mx-auto flex max-w-7xl flex-col items-center gap-4 px-4 py-12 text-center sm:px-6">
          <h2 className="text-3xl font-bold">Ready to find your next vehicle?</h2>
          <p className="max-w-2xl text-slate-600">
            Thousands of lots close every day. Join now and get exclusive pre-launch benefits.
          </p>
          <div className="flex flex-wrap justify-center gap-3">
            <Link
              to="/community-vehicles"
              className="rounded-lg bg-brand-700 px-5 py-2.5 font-semibold text-white hover:bg-brand-800"
            >
              Browse Vehicles
            </Link>
            <DialogLink
              dialog="register"
              className="rounded-lg border border-brand-700 px-5 py-2.5 font-semibold text-brand-700 hover:bg-white"
            >
              Join Now
            </DialogLink>
          </div>
        </div>
      </section>
    </>
  );
}

function HeroLink({
  to,
  label,
  primary = false,
}: {
  to: string;
  label: string;
  primary?: boolean;
}) {
  return (
    <Link
      to={to}
      className={
        primary
          ? "rounded-lg bg-accent-500 px-5 py-2.5 font-semibold text-slate-900 hover:bg-accent-600"
          : "rounded-lg border border-white/40 bg-white/10 px-5 py-2.5 font-semibold text-white hover:bg-white/20"
      }
    >
      {label}
    </Link>
  );
}

/**
 * What a new buyer does before a first bid, in place of a picture: the three steps and the real
 * minimum, so the card says what the sign-in leads to (docs/decisions/3307).
 */
function FirstBidSteps() {
  const steps = [
    {
      title: "Verify your ID",
      body: `A driver's license, passport or state ID, reviewed ${REVIEW_TIME}.`,
    },
    {
      title: `Deposit ${formatUsd(MIN_DEPOSIT_CENTS, "cents")} or more`,
      body: "It sets what you can bid; what no bid or invoice holds can be refunded.",
    },
    {
      title: "Bid live or set a maximum",
      body: "We bid for you up to your maximum, step by step.",
    },
  ];
  return (
    <ol
      className="mt-6 space-y-3 border-t border-slate-200 pt-5"
      aria-label="Before your first bid"
    >
      {steps.map((step, index) => (
        <li key={step.title} className="flex gap-3">
          <span
            aria-hidden="true"
            className="flex h-7 w-7 shrink-0 items-center justify-center rounded-full bg-brand-50 text-sm font-bold text-brand-700"
          >
            {index + 1}
          </span>
          <span>
            <span className="block font-semibold">{step.title}</span>
            <span className="block text-sm text-slate-600">{step.body}</span>
          </span>
        </li>
      ))}
    </ol>
  );
}

/**
 * A few real lots closing soonest, right under the hero (docs/decisions/3552): picture, what it
 * is, where, the bid and the time left. A visitor who opens one is asked to sign in first.
 */
function ClosingSoon({ lots, serverTime }: { lots: LandingLot[]; serverTime: string }) {
  return (
    <section
      className="mx-auto max-w-7xl px-4 pt-12 sm:px-6"
      aria-labelledby="closing-soon-heading"
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="closing-soon-heading" className="text-2xl font-bold sm:text-3xl">
          Closing soon at auction
        </h2>
        <Link to="/auctions" className="font-semibold text-brand-700 underline">
          See all live auctions
        </Link>
      </div>
      <ul className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-4" data-testid="landing-lots">
        {lots.map((lot) => (
          <li
            key={lot.id}
            className="flex flex-col overflow-hidden rounded-lg border border-slate-200 bg-white shadow-sm"
          >
            <img
              src={lot.picture.src}
              alt={lot.picture.alt}
              loading="lazy"
              width={500}
              height={300}
              className={`aspect-[5/3] h-auto w-full bg-slate-200 ${lot.picture.drawn ? "object-contain" : "object-cover"}`}
            />
            <div className="flex flex-1 flex-col gap-1 p-3 text-sm">
              <h3 className="text-base font-bold">
                <Link to={`/auctions/${lot.id}`} className="hover:underline">
                  {lot.title}
                </Link>
              </h3>
              <p className="text-slate-600">
                {lot.house} · {lot.location}
              </p>
              <p className="text-slate-600">
                {lot.damage} · {lot.condition}
                {lot.hasKeys ? " · Keys" : ""}
              </p>
              <p className="mt-auto flex items-baseline justify-between gap-2 pt-2">
                <strong>
                  {Number(lot.currentBid) > 0 ? formatUsd(lot.currentBid) : "No bids yet"}
                </strong>
                <Countdown
                  startsAt={lot.startsAt}
                  endsAt={lot.endsAt}
                  serverTime={serverTime}
                  className="text-xs font-semibold text-slate-700"
                />
              </p>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
