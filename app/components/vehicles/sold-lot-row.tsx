import { Link } from "@remix-run/react";
import { LocalTime } from "~/components/local-time";
import { lotPicture } from "~/services/auctions/pictures";
import type { SoldLot } from "~/services/results/results.server";
import { formatUsd } from "~/utils/money";

const TITLES: Record<string, string> = {
  clean: "Clean",
  salvage: "Salvage",
  rebuilt: "Rebuilt",
  certificate_of_destruction: "Cert. of destruction",
  parts_only: "Parts only",
  other: "Other",
};

/** One sold lot: the vehicle, its damage and title, miles, the price and the day it sold. */
export function SoldLotRow({ lot }: { lot: SoldLot }) {
  // its stored picture, or the drawing of its body style in its colour; the link names the lot,
  // so the picture is decoration here
  const picture = lotPicture(lot, "thumb");
  return (
    <li className="flex items-center gap-3 border-b border-slate-100 py-2">
      <img
        src={picture.src}
        alt=""
        width={80}
        height={48}
        loading="lazy"
        className={`hidden h-12 w-20 rounded bg-slate-100 sm:block ${picture.drawn ? "object-contain" : "object-cover"}`}
      />
      <div className="min-w-0 flex-1">
        <Link to={`/auctions/${lot.id}`} className="font-semibold text-brand-700 underline">
          {lot.year} {lot.make} {lot.model}
        </Link>
        <p className="text-xs text-slate-600">
          {lot.primaryDamage ?? lot.damageType} · {TITLES[lot.titleType] ?? lot.titleType}
          {lot.odometer === null ? "" : ` · ${lot.odometer.toLocaleString("en-US")} mi`}
          {lot.runsDrives ? " · runs" : ""}
        </p>
      </div>
      <div className="text-right">
        <p className="font-bold">{formatUsd(lot.soldPrice)}</p>
        <p className="text-xs text-slate-500">
          <LocalTime at={lot.soldAt} style="day" />
        </p>
      </div>
    </li>
  );
}
