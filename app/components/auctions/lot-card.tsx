import { memo } from "react";
import { Form, Link } from "@remix-run/react";
import { LotBadge } from "~/components/auctions/badge";
import { Countdown } from "~/components/auctions/countdown";
import { lotPicture } from "~/services/auctions/pictures";
import type { AuctionVehicle } from "~/services/auctions/types";
import { formatUsd } from "~/utils/money";
import { LocalTime } from "~/components/local-time";
import { titleLabel } from "~/services/auctions/options";
import { runConditionLabel } from "~/services/auctions/house-facts";
import { isUrgent } from "~/services/auctions/rules";

export type CardLot = Pick<
  AuctionVehicle,
  | "id"
  | "year"
  | "make"
  | "model"
  | "vin"
  | "location"
  | "damageType"
  | "primaryDamage"
  | "secondaryDamage"
  | "lotNumber"
  | "odometer"
  | "hasKeys"
  | "runCondition"
  | "titleType"
  | "auctionHouse"
  | "badge"
  | "currentBid"
  | "bidCount"
  | "estimatedValue"
  | "imageUrl"
  | "bodyStyle"
  | "color"
  | "startsAt"
  | "endsAt"
  | "watching"
  | "leading"
>;

const button =
  "inline-flex flex-1 items-center justify-center rounded-md px-3 py-2 text-sm font-semibold";

/**
 * A lot in the list; the bid buttons are links to the lot's form, opened as a dialog with JS.
 * Memoised: the list renders again on every live event, a card only when its own props change
 * (docs/decisions/3414).
 */
export const LotCard = memo(function LotCard({
  lot,
  serverTime,
  returnTo,
  onBid,
}: {
  lot: CardLot;
  serverTime: string;
  returnTo: string;
  onBid: (lot: CardLot, proxy: boolean, event: React.MouseEvent) => void;
}) {
  const title = `${lot.year} ${lot.make} ${lot.model}`;
  // its stored picture at card size, or the drawing of its body style in its colour
  const picture = lotPicture(lot, "thumb");
  return (
    <article
      className="flex flex-col overflow-hidden rounded-lg border border-slate-200 bg-white shadow-sm"
      aria-labelledby={`lot-${lot.id}-title`}
    >
      <div className="relative">
        <img
          src={picture.src}
          alt={picture.alt}
          loading="lazy"
          className={`aspect-[5/3] w-full bg-slate-200 ${picture.drawn ? "object-contain" : "object-cover"}`}
        />
        <div className="absolute left-2 top-2">
          <LotBadge badge={lot.badge} urgent={isUrgent(lot.endsAt, serverTime)} />
        </div>
        <Countdown
          startsAt={lot.startsAt}
          endsAt={lot.endsAt}
          serverTime={serverTime}
          className="absolute bottom-2 right-2 rounded bg-slate-900/80 px-2 py-0.5 text-xs font-semibold text-white"
        />
      </div>
      <div className="flex flex-1 flex-col gap-1 p-3 text-sm">
        <h2 id={`lot-${lot.id}-title`} className="text-base font-bold">
          <Link to={`/auctions/${lot.id}`} className="hover:underline">
            {title}
          </Link>
        </h2>
        <p className="text-xs font-semibold uppercase text-slate-500">
          {lot.auctionHouse === "iaai" ? "IAAI" : "Copart"} · Lot {lot.lotNumber}
        </p>
        <p>
          <span className="text-slate-500">VIN:</span>{" "}
          <span className="break-all font-mono">{lot.vin}</span>
        </p>
        <p>
          <span className="text-slate-500">Odometer:</span>{" "}
          {lot.odometer === null ? "Not stated" : `${lot.odometer.toLocaleString("en-US")} mi`}
        </p>
        <p>
          <span className="text-slate-500">Title:</span> {titleLabel(lot.titleType)}
        </p>
        <p data-testid="card-condition">
          <span className="text-slate-500">Run condition:</span>{" "}
          {runConditionLabel(lot.auctionHouse, lot.runCondition)}
          <span className="text-slate-500"> · Keys:</span> {lot.hasKeys ? "Yes" : "No"}
        </p>
        <p>
          <span className="text-slate-500">Location:</span> {lot.location}
        </p>
        <p>
          <span className="text-slate-500">Damage:</span>{" "}
          {lot.primaryDamage ? (
            <>
              {lot.primaryDamage}
              {lot.secondaryDamage ? ` / ${lot.secondaryDamage}` : ""}
            </>
          ) : (
            "Not stated"
          )}
        </p>
        <p>
          <span className="text-slate-500">Sale date:</span> <LocalTime at={lot.endsAt} />
        </p>
        <p>
          <span className="text-slate-500">Current bid:</span>{" "}
          <strong>{Number(lot.currentBid) > 0 ? formatUsd(lot.currentBid) : "No bids"}</strong>
          {lot.leading ? (
            <span className="ml-1 text-xs font-semibold text-emerald-700">(you lead)</span>
          ) : null}
        </p>
        {Number(lot.estimatedValue) > 0 ? (
          <p>
            <span className="text-slate-500">Est. value:</span> {formatUsd(lot.estimatedValue)}
          </p>
        ) : null}
        <div className="mt-auto flex gap-2 pt-3">
          {lot.badge === "LIVE" || lot.badge === "ENDING SOON" ? (
            <>
              <Link
                to={`/auctions/${lot.id}#bid`}
                onClick={(event) => onBid(lot, false, event)}
                className={`${button} ${lot.badge === "ENDING SOON" && isUrgent(lot.endsAt, serverTime) ? "bg-red-600 hover:bg-red-700" : "bg-brand-700 hover:bg-brand-800"} text-white`}
              >
                {lot.badge === "ENDING SOON" ? "BID NOW!" : "Place Bid"}
              </Link>
              <Link
                to={`/auctions/${lot.id}?proxy=1#bid`}
                onClick={(event) => onBid(lot, true, event)}
                className={`${button} border border-brand-700 text-brand-700 hover:bg-brand-50`}
              >
                Auto Bid
              </Link>
            </>
          ) : lot.badge === "STARTING SOON" ? (
            <>
              <Form method="post" action={`/auctions/${lot.id}`} className="flex flex-1">
                <input type="hidden" name="intent" value="watch" />
                <input type="hidden" name="redirectTo" value={returnTo} />
                <button
                  type="submit"
                  className={`${button} border border-slate-300 hover:bg-slate-50`}
                  aria-pressed={lot.watching}
                >
                  {lot.watching ? "Watching" : "Watch"}
                </button>
              </Form>
              <Link
                to={`/auctions/${lot.id}#bid`}
                onClick={(event) => onBid(lot, true, event)}
                className={`${button} bg-brand-700 text-white hover:bg-brand-800`}
              >
                Pre-Bid
              </Link>
            </>
          ) : (
            <button
              type="button"
              disabled
              className={`${button} cursor-not-allowed bg-slate-300 text-slate-700`}
            >
              Auction Ended
            </button>
          )}
        </div>
      </div>
    </article>
  );
});

export function LotCardSkeleton() {
  return (
    <div
      aria-hidden="true"
      className="animate-pulse overflow-hidden rounded-lg border border-slate-200 bg-white"
    >
      <div className="aspect-[5/3] w-full bg-slate-200" />
      <div className="space-y-2 p-3">
        <div className="h-4 w-3/4 rounded bg-slate-200" />
        <div className="h-3 w-1/3 rounded bg-slate-200" />
        <div className="h-3 w-2/3 rounded bg-slate-200" />
        <div className="h-3 w-1/2 rounded bg-slate-200" />
        <div className="h-9 w-full rounded bg-slate-200" />
      </div>
    </div>
  );
}
