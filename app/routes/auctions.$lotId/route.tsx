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
import { useLiveLotState } from "~/components/auctions/live-lot";
import { LocalTime } from "~/components/local-time";
import { lotExists, toggleWatch } from "~/services/auctions/lots.server";
import { lotView } from "~/services/auctions/lot-view.server";
import { canEndNow, endDemoLotNow } from "~/services/auctions/demo.server";
import {
  BidError,
  checkBidInput,
  placeBid,
  type PlaceBidInput,
} from "~/services/auctions/bidding.server";
import { BID_PLACED, isUrgent, raisedDetail, REFRESH_MS } from "~/services/auctions/rules";
import { consumeRateLimit, tooManyRequests } from "~/platform/rate-limit.server";
import {
  notSignedIn,
  requireAdmin,
  requireUser,
  sessionId,
} from "~/services/accounts/session.server";
import { redirectWithToast } from "~/http/toast.server";
import { safeRedirect } from "~/http/http.server";
import { replyFor } from "~/http/respond.server";
import { isUserError } from "~/utils/user-error";
import { useHydrated } from "~/utils/use-hydrated";
import { formatUsd } from "~/utils/money";
import { bidFormSchema } from "~/services/auctions/schemas";
import { AllInEstimateCard } from "~/components/purchases/all-in-estimate";
import { allInEstimate } from "~/services/purchases/estimate.server";
import { feesAt } from "~/services/purchases/schedules.server";
import { allInCost } from "~/services/purchases/fees";
import { purchaseIdForLot } from "~/services/purchases/invoices.server";
import { BidHistory } from "./bid-history";
import { LotFacts } from "./lot-facts";
import { LotPhotos } from "./lot-photos";
import { VinSummary, vinSummary } from "~/components/vehicles/vin-facts";
import { vinReport } from "~/services/vehicles/vin-report.server";
import { ComparableSales } from "~/components/vehicles/comparable-sales";
import { comparableSales } from "~/services/results/results.server";
import { guardAction, guardLoader } from "~/http/route-guards.server";
import { readForm } from "~/http/form-body.server";
import { replicaReads } from "~/http/replica-reads";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  {
    title: data
      ? `${data.lot.year} ${data.lot.make} ${data.lot.model} · Lot ${data.lot.lotNumber} · BidYard`
      : "Lot · BidYard",
  },
];

export const loader = (args: LoaderFunctionArgs) => guardLoader(args, load);
export const handle = replicaReads;

async function load({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  // the lot, its history and the buying power every screen shows, from one snapshot (record
  // 2752); the bid form adds back this lot's own hold
  const view = await lotView(params.lotId ?? "", user.id);
  if (!view) throw new Response("This auction lot does not exist.", { status: 404 });
  const { lot, state } = view;
  // an ended or closing lot's cost is its invoice: no estimate of a win that can no longer happen
  const open = lot.badge !== "ENDED" && lot.badge !== "CLOSING";
  const [vin, comparables, fees, endNow, purchaseId] = await Promise.all([
    vinReport(lot.vin, lot),
    comparableSales(lot),
    // the schedules and terms as of the snapshot, kept until an admin changes them (record 3543)
    open ? feesAt(view.feesVersion) : null,
    // an admin may end a demo lot at once where test payments run (record 2755)
    user.role === "admin" ? canEndNow(lot.id) : false,
    // a won lot links straight to its invoice
    lot.badge === "ENDED" && lot.leading ? purchaseIdForLot(user.id, lot.id) : null,
  ]);
  // an ended lot's cost is its invoice: no estimate of a win that can no longer happen
  const estimate = fees ? await allInEstimate(lot, new URL(request.url).searchParams, fees) : null;
  // the cards' "Auto Bid" link (?proxy=1#bid) opens the form with Proxy bid ticked
  const proxy = new URL(request.url).searchParams.get("proxy") === "1";
  // the comparable sales and the decoded VIN have their own pages; the lot page keeps what the
  // bid is weighed with and the VIN's warning (record 3544)
  const { sales: _sales, ...weighed } = comparables;
  return {
    lot,
    state,
    vin: vinSummary(vin),
    comparables: weighed,
    // the bid form says a saving from the all-in cost, which needs the schedules (record 3542);
    // sent only where it can say one
    feeSchedules: fees && comparables.guidance?.runsDrives ? fees.schedules : null,
    estimate,
    endNow,
    purchaseId,
    proxy,
  };
}

export type BidActionData = {
  result: SubmissionResult<string[]>;
  toast?: { title: string; description: string; type: "success" | "info" | "error" };
};

export const action = (args: ActionFunctionArgs) => guardAction(args, placeBidFromForm);

async function placeBidFromForm({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const lotId = params.lotId ?? "";
  const formData = await readForm(request);
  const redirectTo = safeRedirect(formData.get("redirectTo"), `/auctions/${lotId}`);
  if (formData.get("intent") === "end-now") return endNow(request, lotId);
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

  const submission = parseWithZod(formData, { schema: bidFormSchema() });
  if (submission.status !== "success") {
    // a refused form still counts on the bidder's limiter, before its 400 (as /api/bids)
    await consumeRateLimit(request, "bid", user.id);
    return data<BidActionData>({ result: submission.reply() }, { status: 400 });
  }
  const { amount, isProxyBid, maxAmount, js } = submission.value;
  try {
    const placed = await placeFormBid(request, user.id, {
      lotId,
      amount,
      isProxy: isProxyBid,
      maxAmount: isProxyBid ? maxAmount : null,
    });
    const toast =
      placed.outcome === "leading"
        ? { ...BID_PLACED.leading, type: "success" as const }
        : placed.outcome === "raised"
          ? {
              title: BID_PLACED.raised.title,
              description: raisedDetail(
                formatUsd(isProxyBid && maxAmount ? maxAmount : amount),
                formatUsd(placed.currentBid),
              ),
              type: "success" as const,
            }
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

/**
 * The form's bid goes the one way every bid goes (docs/decisions/3602): placeBid, one database
 * call for the session, the bid limiter and the bid, as POST /api/bids. Its answers are the ones
 * the form gave when it moved the limiter and placed the bid in separate calls: the limiter counts
 * every bid, a malformed one too (then its 400), a spent limiter is the 429, and a session that
 * ended since requireUser read it is sent to sign in.
 */
async function placeFormBid(request: Request, userId: string, input: PlaceBidInput) {
  try {
    checkBidInput(input);
  } catch (error) {
    await consumeRateLimit(request, "bid", userId);
    throw error;
  }
  const session = await sessionId(request);
  const result = session ? await placeBid(session, input) : ({ kind: "signed_out" } as const);
  if (result.kind === "signed_out") throw notSignedIn(request);
  if (result.kind === "rate_limited") throw tooManyRequests(request, result.retryMs);
  return result.bid;
}

/** An admin ends a demo lot now (record 2755): it closes as the closer would. */
async function endNow(request: Request, lotId: string) {
  const admin = await requireAdmin(request);
  try {
    const outcome = await endDemoLotNow(admin, lotId);
    return redirectWithToast(`/auctions/${lotId}`, {
      title: "Lot ended",
      description:
        outcome === "sold"
          ? "The hammer fell: sold to the high bidder, whose invoice is ready."
          : "It ended without bids.",
      type: "success",
    });
  } catch (error) {
    if (!isUserError(error)) throw error;
    return redirectWithToast(`/auctions/${lotId}`, {
      title: "Could not end the lot",
      description: error.message,
      type: "error",
    });
  }
}

export default function LotPage() {
  const loaded = useLoaderData<typeof loader>();
  const { vin, comparables, estimate, purchaseId, feeSchedules } = loaded;
  // every moving part from the newest read of the lot's state; after each live event the page
  // reads it again (record 2752); it polls only while the stream is down (record 1801)
  const { lot, history, bidder, serverTime, streaming } = useLiveLotState(loaded.lot, loaded.state);
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

  const open = lot.badge !== "ENDED" && lot.badge !== "CLOSING";
  return (
    <div className="mx-auto max-w-7xl px-3 py-6 sm:px-6">
      <p className="text-sm">
        <Link to="/auctions" className="text-brand-700 underline">
          ← Back to Live Auctions
        </Link>
      </p>
      <div className="mt-3 flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-black sm:text-3xl">{`${lot.year} ${lot.make} ${lot.model}`}</h1>
        <LotBadge badge={lot.badge} urgent={isUrgent(lot.endsAt, serverTime)} />
      </div>
      {/* On a phone the price, time left and bid form come right after the photos and before the
          facts; from lg the facts sit under the photos in the left column (record 3540). */}
      <div className="mt-6 grid gap-6 lg:grid-cols-[1.4fr_1fr] lg:grid-rows-[auto_1fr]">
        <section aria-label="Photos" className="lg:col-start-1 lg:row-start-1">
          <LotPhotos lot={lot} />
        </section>

        <section
          aria-labelledby="bid-heading"
          className="space-y-4 lg:col-start-2 lg:row-span-2 lg:row-start-1"
        >
          <div className="rounded-lg border border-slate-200 bg-white p-4">
            <p className="text-sm text-slate-600">Current bid</p>
            <p className="text-3xl font-black" data-testid="current-bid">
              {Number(lot.currentBid) > 0 ? formatUsd(lot.currentBid) : "No bids"}
            </p>
            <p className="text-sm text-slate-600">
              <span data-testid="bid-count">
                {`${lot.bidCount} ${lot.bidCount === 1 ? "bid" : "bids"}`}
              </span>
              {" · "}
              <Countdown startsAt={lot.startsAt} endsAt={lot.endsAt} serverTime={serverTime} />
            </p>
            <p className="text-sm text-slate-600">
              <span data-testid="ends-at">
                {open ? "Ends " : "Ended "}
                <LocalTime at={lot.endsAt} />
              </span>
            </p>
            {lot.leading ? (
              <p
                className="mt-2 rounded bg-emerald-50 px-2 py-1 text-sm font-semibold text-emerald-800"
                data-testid="leader-notice"
              >
                {lot.badge === "ENDED"
                  ? "You won this lot"
                  : lot.badge === "CLOSING"
                    ? "You were the high bidder at its end: the lot is closing"
                    : "You are the high bidder"}
                {lot.myMax && open ? ` (your maximum: ${formatUsd(lot.myMax)})` : ""}
                {open || lot.badge === "CLOSING" ? "" : ` at ${formatUsd(lot.currentBid)}`}
                {lot.badge === "ENDED" ? (
                  <Link
                    to={purchaseId ? `/purchases/${purchaseId}` : "/my-auctions#won"}
                    className="ml-1 underline"
                  >
                    Invoice and next steps
                  </Link>
                ) : null}
              </p>
            ) : history.some((entry) => entry.mine) ? (
              <p
                className="mt-2 rounded bg-red-50 px-2 py-1 text-sm font-semibold text-red-800"
                data-testid="outbid-notice"
              >
                {lot.badge === "ENDED" || lot.badge === "CLOSING"
                  ? "You did not win this lot"
                  : "You have been outbid"}
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
                  proxyDefault={loaded.proxy}
                  guidance={comparables.guidance}
                  allInCentsOf={
                    feeSchedules
                      ? (bidCents) => allInCost(feeSchedules, bidCents, lot.titleType).totalCents
                      : null
                  }
                />
              </div>
            ) : (
              <p className="mt-2">
                <button
                  type="button"
                  disabled
                  className="rounded-md bg-slate-300 px-4 py-2 text-sm font-semibold text-slate-700"
                >
                  {lot.badge === "CLOSING" ? "Auction Closing" : "Auction Ended"}
                </button>
              </p>
            )}
          </div>

          {loaded.endNow && open ? (
            <Form
              method="post"
              className="rounded-lg border border-dashed border-amber-400 bg-amber-50 p-4"
            >
              <input type="hidden" name="intent" value="end-now" />
              <p className="text-sm text-amber-950">
                <strong>Demo lot (TEST MODE).</strong> As an admin you can end it now to watch the
                hammer fall: it closes as it would at its end.
              </p>
              <button
                type="submit"
                className="mt-2 rounded-md bg-amber-500 px-3 py-1.5 text-sm font-semibold text-slate-900 hover:bg-amber-600"
              >
                End now
              </button>
            </Form>
          ) : null}
          <ComparableSales
            comparables={comparables}
            lot={lot}
            salesHref={`/auctions/${lot.id}/comparables`}
          />
          {estimate && open ? (
            <AllInEstimateCard estimate={estimate} action={`/auctions/${lot.id}`} />
          ) : null}
          <BidHistory history={history} bidCount={lot.bidCount} />
        </section>

        <section aria-label="Vehicle facts" className="lg:col-start-1 lg:row-start-2">
          <LotFacts lot={lot} />
          <VinSummary summary={vin} href={`/auctions/${lot.id}/vin`} />
        </section>
      </div>
    </div>
  );
}
