import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import {
  data,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import {
  Form,
  Link,
  useActionData,
  useLoaderData,
  useNavigation,
  useRevalidator,
} from "@remix-run/react";
import { useEffect } from "react";
import { LotBadge } from "~/components/auctions/badge";
import { BidForm } from "~/components/auctions/bid-form";
import { Countdown } from "~/components/auctions/countdown";
import { useLiveLot } from "~/components/auctions/live-lot";
import { EndTime } from "~/components/auctions/live-end-time";
import { now } from "~/platform/clock.server";
import { bidHistory, getLot, lotExists, toggleWatch } from "~/services/auctions/lots.server";
import { BidError, placeBid } from "~/services/auctions/bidding.server";
import { buyingPower } from "~/services/auctions/buying-power.server";
import { BID_PLACED, REFRESH_MS } from "~/services/auctions/rules";
import { consumeRateLimit } from "~/platform/rate-limit.server";
import { readSession, requireUser } from "~/services/accounts/session.server";
import { redirectWithToast } from "~/http/toast.server";
import { safeRedirect } from "~/http/http.server";
import { replyFor } from "~/http/respond.server";
import { isUserError } from "~/utils/user-error";
import { useHydrated } from "~/utils/use-hydrated";
import { formatUsd } from "~/utils/money";
import { bidFormSchema } from "~/services/auctions/schemas";
import { whileDatabaseUp } from "~/platform/availability.server";
import { AllInEstimateCard } from "~/components/purchases/all-in-estimate";
import { allInEstimate } from "~/services/purchases/estimate.server";
import { BidHistory } from "./bid-history";
import { LotFacts } from "./lot-facts";
import { LotPhotos } from "./lot-photos";
import { VinFacts } from "~/components/vehicles/vin-facts";
import { vinReport } from "~/services/vehicles/vin-report.server";
import { ComparableSales } from "~/components/vehicles/comparable-sales";
import { comparableSales } from "~/services/results/results.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  {
    title: data
      ? `${data.lot.year} ${data.lot.make} ${data.lot.model} · Lot ${data.lot.lotNumber} · BidYard`
      : "Lot · BidYard",
  },
];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const lot = await getLot(params.lotId ?? "", user.id);
  if (!lot) throw new Response("This auction lot does not exist.", { status: 404 });
  // the same buying power every screen shows; the bid form adds back this lot's own hold
  const [history, bidder, vin, comparables, estimate] = await Promise.all([
    bidHistory(lot.id, user.id),
    // what the deposit holds came with the user, in the page's one session read
    readSession(request).then((session) => buyingPower(user, session?.held)),
    vinReport(lot.vin, lot),
    comparableSales(lot),
    allInEstimate(lot, new URL(request.url).searchParams),
  ]);
  return {
    lot,
    history,
    bidder,
    vin,
    comparables,
    estimate,
    serverTime: now().toISOString(),
    timeZone: user.timeZone,
  };
}

export type BidActionData = {
  result: SubmissionResult<string[]>;
  toast?: { title: string; description: string; type: "success" | "info" | "error" };
};

export async function action(args: ActionFunctionArgs) {
  return whileDatabaseUp(args.request, () => placeBidFromForm(args));
}

async function placeBidFromForm({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const lotId = params.lotId ?? "";
  const formData = await request.formData();
  const redirectTo = safeRedirect(formData.get("redirectTo"), `/auctions/${lotId}`);
  if (formData.get("intent") === "watch") {
    if (!(await lotExists(lotId)))
      throw new Response("This auction lot does not exist.", { status: 404 });
    const watching = await toggleWatch(user.id, lotId);
    return redirectWithToast(redirectTo, {
      title: watching ? "Added to Watchlist" : "Removed from Watchlist",
      description: watching
        ? "We'll keep this lot in your watchlist."
        : "This lot is no longer in your watchlist.",
      type: "success",
    });
  }

  await consumeRateLimit(request, "bid", user.id);
  const submission = parseWithZod(formData, { schema: bidFormSchema() });
  if (submission.status !== "success") {
    return data<BidActionData>({ result: submission.reply() }, { status: 400 });
  }
  const { amount, isProxyBid, maxAmount, js } = submission.value;
  try {
    const placed = await placeBid(user.id, {
      lotId,
      amount,
      isProxy: isProxyBid,
      maxAmount: isProxyBid ? maxAmount : null,
    });
    const toast =
      placed.outcome === "leading"
        ? { ...BID_PLACED.leading, type: "success" as const }
        : {
            title: BID_PLACED.outbid.title,
            description: BID_PLACED.outbid.detail,
            type: "info" as const,
          };
    if (js) return data<BidActionData>({ result: submission.reply({ resetForm: true }), toast });
    return redirectWithToast(redirectTo, toast);
  } catch (error) {
    if (!isUserError(error)) throw error;
    const description = error instanceof BidError ? error.description : error.message;
    return data<BidActionData>(
      {
        result: replyFor(submission, error),
        toast: { title: error.title, description, type: "error" },
      },
      { status: error.status },
    );
  }
}

export default function LotPage() {
  const loaded = useLoaderData<typeof loader>();
  const { history, bidder, vin, comparables, estimate } = loaded;
  // the stream updates the lot in place; the page polls only while it is down (record 1801)
  const { lot, serverTime, streaming } = useLiveLot(loaded.lot, loaded.serverTime);
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  const hydrated = useHydrated();

  useEffect(() => {
    if (streaming) return;
    const timer = setInterval(() => {
      if (document.visibilityState === "visible" && revalidator.state === "idle")
        revalidator.revalidate();
    }, REFRESH_MS);
    return () => clearInterval(timer);
  }, [revalidator, streaming]);

  const open = lot.badge !== "ENDED";
  return (
    <div className="mx-auto max-w-7xl px-3 py-6 sm:px-6">
      <p className="text-sm">
        <Link to="/auctions" className="text-brand-700 underline">
          ← Back to Live Auctions
        </Link>
      </p>
      <div className="mt-3 flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-black sm:text-3xl">
          {lot.year} {lot.make} {lot.model}
        </h1>
        <LotBadge badge={lot.badge} />
      </div>
      <div className="mt-6 grid gap-6 lg:grid-cols-[1.4fr_1fr]">
        <section aria-label="Photos">
          <LotPhotos lot={lot} />
          <LotFacts lot={lot} />
          <VinFacts report={vin} />
        </section>

        <section aria-labelledby="bid-heading" className="space-y-4">
          <div className="rounded-lg border border-slate-200 bg-white p-4">
            <p className="text-sm text-slate-600">Current bid</p>
            <p className="text-3xl font-black" data-testid="current-bid">
              {Number(lot.currentBid) > 0 ? formatUsd(lot.currentBid) : "No bids"}
            </p>
            <p className="text-sm text-slate-600">
              {lot.bidCount} {lot.bidCount === 1 ? "bid" : "bids"} ·{" "}
              <Countdown startsAt={lot.startsAt} endsAt={lot.endsAt} serverTime={serverTime} />
            </p>
            <p className="text-sm text-slate-600">
              <EndTime endsAt={lot.endsAt} accountZone={loaded.timeZone} />
            </p>
            {lot.leading ? (
              <p className="mt-2 rounded bg-emerald-50 px-2 py-1 text-sm font-semibold text-emerald-800">
                {lot.badge === "ENDED" ? "You won this lot" : "You are the high bidder"}
                {lot.myMax ? ` (your maximum: ${formatUsd(lot.myMax)})` : ""}
                {lot.badge === "ENDED" ? (
                  <Link to="/my-auctions#won" className="ml-1 underline">
                    Invoice and next steps
                  </Link>
                ) : null}
              </p>
            ) : history.some((entry) => entry.mine) ? (
              <p className="mt-2 rounded bg-red-50 px-2 py-1 text-sm font-semibold text-red-800">
                You have been outbid
              </p>
            ) : null}
            <Form method="post" className="mt-3">
              <input type="hidden" name="intent" value="watch" />
              <button
                type="submit"
                className="rounded-md border border-slate-300 px-3 py-1.5 text-sm font-semibold"
              >
                {lot.watching ? "Remove from Watchlist" : "Watch"}
              </button>
            </Form>
          </div>

          <div id="bid" className="rounded-lg border border-slate-200 bg-white p-4">
            <h2 id="bid-heading" className="text-lg font-bold">
              {lot.badge === "STARTING SOON" ? "Place a Pre-Bid" : "Place a Bid"}
            </h2>
            {actionData?.toast && actionData.toast.type !== "error" ? (
              <p role="status" className="mt-2 rounded bg-emerald-50 p-2 text-sm">
                {actionData.toast.title}: {actionData.toast.description}
              </p>
            ) : null}
            {open ? (
              <div className="mt-3">
                <BidForm
                  key={`${lot.id}-${lot.currentBid}`}
                  lot={lot}
                  bidder={bidder}
                  lastResult={actionData?.result}
                  pending={navigation.state === "submitting"}
                  redirectTo={`/auctions/${lot.id}`}
                  hydrated={hydrated}
                />
              </div>
            ) : (
              <p className="mt-2">
                <button
                  type="button"
                  disabled
                  className="rounded-md bg-slate-300 px-4 py-2 text-sm font-semibold text-slate-700"
                >
                  Auction Ended
                </button>
              </p>
            )}
          </div>

          <ComparableSales comparables={comparables} lot={lot} />
          <AllInEstimateCard estimate={estimate} action={`/auctions/${lot.id}`} />
          <BidHistory history={history} />
        </section>
      </div>
    </div>
  );
}
