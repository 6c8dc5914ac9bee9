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
import { useEffect, useState } from "react";
import { LotBadge } from "~/components/auctions/badge";
import { BidForm } from "~/components/auctions/bid-form";
import { Countdown } from "~/components/auctions/countdown";
import { now } from "~/platform/clock.server";
import { bidHistory, getLot, lotExists, toggleWatch } from "~/modules/auctions/lots.server";
import { BidError, bidderContext, placeBid } from "~/modules/auctions/bidding.server";
import { consumeRateLimit } from "~/platform/rate-limit.server";
import { requireUser } from "~/modules/accounts/session.server";
import { redirectWithToast } from "~/http/toast.server";
import { safeRedirect } from "~/http/http.server";
import { formatUsd } from "~/utils/money";
import { bidFormSchema } from "~/modules/auctions/schemas";
import { whileDatabaseUp } from "~/platform/availability.server";

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
  // the buying power this lot can use: its own hold is not counted against itself
  const [history, bidder] = await Promise.all([
    bidHistory(lot.id, user.id),
    bidderContext(user, lot.id),
  ]);
  return { lot, history, bidder, serverTime: now().toISOString() };
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
        ? {
            title: "Bid Placed Successfully",
            description: "Your bid has been submitted to the auction.",
            type: "success" as const,
          }
        : {
            title: "Outbid",
            description:
              "Your bid was placed, but another bidder's proxy maximum is higher: you were outbid at once.",
            type: "info" as const,
          };
    if (js) return data<BidActionData>({ result: submission.reply({ resetForm: true }), toast });
    return redirectWithToast(redirectTo, toast);
  } catch (error) {
    if (!(error instanceof BidError)) throw error;
    const result = error.field
      ? submission.reply({ fieldErrors: { [error.field]: [error.message] } })
      : submission.reply({ formErrors: [error.message] });
    return data<BidActionData>(
      {
        result,
        toast: { title: error.title, description: error.description, type: "error" },
      },
      { status: error.status },
    );
  }
}

function useHydrated() {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

const TITLE_LABELS: Record<string, string> = {
  clean: "Clean",
  salvage: "Salvage",
  rebuilt: "Rebuilt",
  certificate_of_destruction: "Certificate of destruction",
  parts_only: "Parts only",
  other: "Other",
};

export default function LotPage() {
  const { lot, history, bidder, serverTime } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  const hydrated = useHydrated();
  const [photo, setPhoto] = useState(0);

  useEffect(() => {
    const timer = setInterval(() => {
      if (document.visibilityState === "visible" && revalidator.state === "idle")
        revalidator.revalidate();
    }, 5000);
    return () => clearInterval(timer);
  }, [revalidator]);

  const open = lot.badge !== "ENDED";
  const fields: Array<[string, string]> = [
    ["Auction house", lot.auctionHouse === "iaai" ? "IAAI" : "Copart"],
    ["Lot number", lot.lotNumber],
    ["VIN", lot.vin],
    ["Year", String(lot.year)],
    ["Make", lot.make],
    ["Model", lot.model],
    ["Trim", lot.trimLevel ?? "—"],
    ["Body style", lot.bodyStyle ?? "—"],
    ["Color", lot.color ?? "—"],
    ["Odometer", lot.odometer === null ? "—" : `${lot.odometer.toLocaleString("en-US")} mi`],
    ["Primary damage", lot.primaryDamage ?? "Unknown"],
    ["Secondary damage", lot.secondaryDamage ?? "—"],
    ["Damage type", lot.damageType],
    [
      "Title",
      `${TITLE_LABELS[lot.titleType] ?? lot.titleType}${lot.titleState ? ` (${lot.titleState})` : ""}`,
    ],
    ["Runs/drives", lot.runsDrives ? "Yes" : "No"],
    ["Keys", lot.hasKeys ? "Yes" : "No"],
    [
      "Estimated retail value",
      Number(lot.estimatedValue) > 0 ? formatUsd(lot.estimatedValue) : "—",
    ],
    ["Repair cost", lot.repairCost ? formatUsd(lot.repairCost) : "—"],
    [
      "Location",
      `${lot.locationCity}, ${lot.locationState}${lot.locationZip ? ` ${lot.locationZip}` : ""}`,
    ],
    ["Yard", lot.yardName ?? "—"],
    ["Starts", new Date(lot.startsAt).toUTCString()],
    ["Ends", new Date(lot.endsAt).toUTCString()],
  ];
  const images = lot.imageUrls.length > 0 ? lot.imageUrls : [];

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
          {images.length > 0 ? (
            <>
              <img
                src={images[photo] ?? images[0]}
                alt={`${lot.year} ${lot.make} ${lot.model}, photo ${photo + 1} of ${images.length}`}
                className="aspect-[5/3] w-full rounded-lg bg-slate-200 object-cover"
              />
              {images.length > 1 ? (
                <ul className="mt-2 flex gap-2 overflow-x-auto">
                  {images.map((src, i) => (
                    <li key={src + i}>
                      <a
                        href={src}
                        onClick={(event) => {
                          event.preventDefault();
                          setPhoto(i);
                        }}
                        aria-label={`Show photo ${i + 1}`}
                      >
                        <img src={src} alt="" className="h-16 w-24 rounded object-cover" />
                      </a>
                    </li>
                  ))}
                </ul>
              ) : null}
            </>
          ) : (
            <div className="flex aspect-[5/3] w-full items-center justify-center rounded-lg bg-slate-200 text-slate-500">
              No photo available
            </div>
          )}
          <dl className="mt-6 grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
            {fields.map(([label, value]) => (
              <div
                key={label}
                className="flex justify-between gap-3 border-b border-slate-200 py-1"
              >
                <dt className="text-slate-600">{label}</dt>
                <dd className="text-right font-medium">{value}</dd>
              </div>
            ))}
          </dl>
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
            {lot.leading ? (
              <p className="mt-2 rounded bg-emerald-50 px-2 py-1 text-sm font-semibold text-emerald-800">
                {lot.badge === "ENDED" ? "You won this lot" : "You are the high bidder"}
                {lot.myMax ? ` (your maximum: ${formatUsd(lot.myMax)})` : ""}
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

          <div className="rounded-lg border border-slate-200 bg-white p-4">
            <h2 className="text-lg font-bold">Bid history</h2>
            {history.length === 0 ? (
              <p className="mt-2 text-sm text-slate-600">No bids yet.</p>
            ) : (
              <table className="mt-2 w-full text-sm">
                <thead>
                  <tr className="text-left text-slate-600">
                    <th className="py-1 font-medium">Bidder</th>
                    <th className="py-1 font-medium">Amount</th>
                    <th className="py-1 font-medium">Time (UTC)</th>
                  </tr>
                </thead>
                <tbody>
                  {history.map((entry) => (
                    <tr key={entry.id} className="border-t border-slate-100">
                      <td className="py-1">
                        {entry.bidder}
                        {entry.mine ? " (you)" : ""}
                        {entry.automatic ? (
                          <span className="ml-1 text-xs text-slate-500">automatic</span>
                        ) : null}
                      </td>
                      <td className="py-1 font-semibold">{formatUsd(entry.amount)}</td>
                      <td className="py-1">{entry.createdAt.slice(11, 19)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </div>
        </section>
      </div>
    </div>
  );
}
