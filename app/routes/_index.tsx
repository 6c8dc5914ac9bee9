import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Dashboard } from "~/components/dashboard";
import { LandingPage } from "~/components/landing-page";
import { activeBidCount } from "~/services/auctions/bidding.server";
import { buyingPower } from "~/services/auctions/buying-power.server";
import { identityStatus } from "~/services/kyc/status";
import { biddingEligibility } from "~/services/auctions/eligibility";
import { readSession } from "~/services/accounts/session.server";
import { useOptionalUser } from "~/services/accounts/use-user";
import { dashboardFacts } from "~/services/accounts/dashboard.server";
import { nextSteps, showsBuyerSteps, type NextStep } from "~/services/accounts/next-steps";
import { toCents } from "~/utils/money";
import { landingLots } from "~/services/auctions/lots.server";
import { guardLoader } from "~/http/route-guards.server";
import { replicaReadsSignedOut } from "~/http/replica-reads";

export const loader = (args: LoaderFunctionArgs) => guardLoader(args, load);
export const handle = replicaReadsSignedOut;

// "/" is the dashboard for signed-in users and the landing page for visitors.
async function load({ request }: LoaderFunctionArgs) {
  const session = await readSession(request);
  if (!session)
    return {
      // a visitor sees a few real lots closing soon (docs/decisions/3552), one load per 15 s
      landing: await landingLots(),
      activeBids: 0,
      available: "0.00",
      identity: identityStatus(false, null),
      eligibility: biddingEligibility(identityStatus(false, null), 0),
      firstVisit: false,
      buyerSteps: true,
      hasBid: false,
      steps: [] as NextStep[],
    };
  const { user, held } = session;
  // what the deposit holds came with the user, in the page's one session read (2903)
  const [activeBids, bidder, facts] = await Promise.all([
    activeBidCount(user.id),
    buyingPower(user, { held }),
    dashboardFacts(user.id),
  ]);
  // a provider who does not buy is not shown the buyer's to-dos (docs/decisions/3533)
  const buyerSteps = showsBuyerSteps({
    accountType: user.accountType,
    buyerActivity: facts.buyerActivity,
    verified: user.verified,
    depositCents: toCents(user.deposit),
  });
  return {
    landing: null,
    activeBids,
    available: bidder.available,
    identity: bidder.identity,
    eligibility: bidder.eligibility,
    // the first time this person sees the dashboard (docs/decisions/3306)
    firstVisit: facts.firstVisit,
    buyerSteps,
    hasBid: facts.hasBid,
    steps: nextSteps({
      accountType: user.accountType,
      eligibility: bidder.eligibility,
      provider: facts.provider,
      invoices: facts.invoices,
      depositCents: toCents(user.deposit),
      buyerSteps,
      jobs: facts.jobs,
    }),
  };
}

export default function Index() {
  const user = useOptionalUser();
  const {
    landing,
    activeBids,
    available,
    identity,
    eligibility,
    firstVisit,
    hasBid,
    steps,
    buyerSteps,
  } = useLoaderData<typeof loader>();
  return user ? (
    <Dashboard
      user={user}
      activeBids={activeBids}
      available={available}
      identity={identity}
      eligibility={eligibility}
      firstVisit={firstVisit}
      hasBid={hasBid}
      steps={steps}
      buyerSteps={buyerSteps}
    />
  ) : (
    <LandingPage lots={landing?.lots ?? []} serverTime={landing?.serverTime ?? ""} />
  );
}
