import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import {
  Form,
  Link,
  useFetcher,
  useLoaderData,
  useLocation,
  useNavigation,
  useRevalidator,
} from "@remix-run/react";
import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { LotCard, LotCardSkeleton, type CardLot } from "~/components/auctions/lot-card";
import { parseAuctionQuery, searchLots, type AuctionVehicle } from "~/modules/auctions/lots.server";
import { bidderContext } from "~/modules/auctions/bidding.server";
import { requireUser } from "~/modules/accounts/session.server";
import { centsToDecimal, parseCents } from "~/utils/money";
import {
  AUCTION_HOUSE_OPTIONS,
  DAMAGE_OPTIONS,
  LOCATION_OPTIONS,
  MAKE_OPTIONS,
  TITLE_OPTIONS,
} from "~/modules/auctions/options";
import type { action as lotAction } from "./auctions.$lotId";
import { useReturnFocus } from "~/utils/use-return-focus";

// The bid dialog (Headless UI, conform and zod: about 50 KB gzipped) loads on the first Bid click;
// without JavaScript the card's Bid link goes to the lot page's own form.
const BidDialog = lazy(() => import("~/components/auctions/bid-dialog"));

export const meta: MetaFunction = () => [{ title: "Live Auctions · BidYard" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const url = new URL(request.url);
  const query = parseAuctionQuery(url.searchParams);
  if (!query) {
    throw new Response("Those filters are not valid. Please adjust them and search again.", {
      status: 400,
    });
  }
  const [page, bidder] = await Promise.all([searchLots(query, user.id), bidderContext(user)]);
  return { ...page, query, bidder };
}

function useHydrated() {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

type Notice = { title: string; description: string; type: "success" | "info" | "error" };

export default function AuctionsPage() {
  const data = useLoaderData<typeof loader>();
  const location = useLocation();
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  const hydrated = useHydrated();
  const more = useFetcher<typeof loader>();
  const bid = useFetcher<typeof lotAction>();
  const [extra, setExtra] = useState<{ vehicles: AuctionVehicle[]; nextCursor: string | null }>({
    vehicles: [],
    nextCursor: null,
  });
  const [dialog, setDialog] = useState<{ lot: AuctionVehicle; proxy: boolean } | null>(null);
  const [dialogOpened, setDialogOpened] = useState(false);
  if (dialog && !dialogOpened) setDialogOpened(true);
  useReturnFocus(dialog !== null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const handled = useRef<unknown>(null);

  // a new search starts from its first page again
  useEffect(() => setExtra({ vehicles: [], nextCursor: null }), [location.search]);

  useEffect(() => {
    if (more.state !== "idle" || !more.data) return;
    const page = more.data;
    setExtra((current) => ({
      vehicles: [
        ...current.vehicles,
        ...page.vehicles.filter((v) => !current.vehicles.some((c) => c.id === v.id)),
      ],
      nextCursor: page.nextCursor,
    }));
  }, [more.state, more.data]);

  // the list refreshes every 5000 ms (SPEC.md §9) while the page is visible and nothing is open
  useEffect(() => {
    const timer = setInterval(() => {
      if (document.visibilityState !== "visible" || dialog) return;
      if (revalidator.state === "idle" && navigation.state === "idle") revalidator.revalidate();
    }, 5000);
    return () => clearInterval(timer);
  }, [revalidator, navigation.state, dialog]);

  useEffect(() => {
    if (bid.state !== "idle" || !bid.data || handled.current === bid.data) return;
    handled.current = bid.data;
    if (bid.data.toast && bid.data.toast.type !== "error") {
      setNotice(bid.data.toast);
      setDialog(null);
      revalidator.revalidate();
    }
  }, [bid.state, bid.data, revalidator]);

  useEffect(() => {
    if (!notice) return;
    const timer = setTimeout(() => setNotice(null), 5000);
    return () => clearTimeout(timer);
  }, [notice]);

  const vehicles = [
    ...data.vehicles,
    ...extra.vehicles.filter((v) => !data.vehicles.some((d) => d.id === v.id)),
  ];
  const nextCursor = extra.vehicles.length > 0 ? extra.nextCursor : data.nextCursor;
  const params = new URLSearchParams(location.search);
  params.delete("cursor");
  const nextHref = nextCursor
    ? `/auctions?${new URLSearchParams([...params, ["cursor", nextCursor]]).toString()}`
    : null;
  const returnTo = `/auctions${location.search}`;
  const loadingList =
    navigation.state === "loading" && navigation.location?.pathname === "/auctions";
  const q = data.query;

  function openBid(lot: CardLot, proxy: boolean, event: React.MouseEvent) {
    if (!hydrated) return;
    event.preventDefault();
    if (data.bidder.blocker) {
      const [title, ...rest] = data.bidder.blocker.split(": ");
      setNotice({ title, description: rest.join(": "), type: "error" });
      return;
    }
    setDialog({ lot: lot as AuctionVehicle, proxy });
  }

  const dialogBidder = dialog
    ? {
        ...data.bidder,
        available: centsToDecimal(
          (parseCents(data.bidder.available) ?? 0) + (parseCents(dialog.lot.myMax) ?? 0),
        ),
      }
    : data.bidder;

  return (
    <div className="mx-auto max-w-7xl px-3 py-6 sm:px-6">
      <h1 className="text-2xl font-black sm:text-3xl">Live Auctions</h1>
      <p className="mt-1 text-slate-600">
        Copart and IAAI lots, with badges and countdowns from the auction clock.
      </p>

      <Form
        key={location.search}
        method="get"
        action="/auctions"
        className="mt-5 grid gap-3 rounded-lg border border-slate-200 bg-white p-4 sm:grid-cols-2 lg:grid-cols-5"
        aria-label="Filter auctions"
      >
        <Select label="Auction house" name="auctionHouse" value={q.auctionHouse}>
          <option value="">All Houses</option>
          {AUCTION_HOUSE_OPTIONS.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </Select>
        <Select label="Make" name="make" value={q.make}>
          <option value="">All Makes</option>
          {MAKE_OPTIONS.map((make) => (
            <option key={make} value={make}>
              {make}
            </option>
          ))}
          {q.make && !(MAKE_OPTIONS as readonly string[]).includes(q.make) ? (
            <option value={q.make}>{q.make}</option>
          ) : null}
        </Select>
        <Select label="Damage type" name="damageType" value={q.damageType}>
          <option value="">All Damage Types</option>
          {DAMAGE_OPTIONS.map((d) => (
            <option key={d} value={d}>
              {d}
            </option>
          ))}
        </Select>
        <Select label="Location" name="location" value={q.location}>
          <option value="">All Locations</option>
          {LOCATION_OPTIONS.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </Select>
        <label className="flex flex-col text-sm font-semibold">
          Search make, model or VIN
          <input
            type="search"
            name="search"
            defaultValue={q.search ?? ""}
            className="mt-1 rounded-md border border-slate-300 px-3 py-2 font-normal"
          />
        </label>
        <details
          className="sm:col-span-2 lg:col-span-5"
          open={Boolean(q.yearMin || q.yearMax || q.titleType || q.runsDrives)}
        >
          <summary className="cursor-pointer text-sm font-semibold text-brand-700">
            More Filters
          </summary>
          <div className="mt-3 grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
            <label className="flex flex-col text-sm font-semibold">
              Year from
              <input
                type="number"
                name="yearMin"
                defaultValue={q.yearMin ?? ""}
                className="mt-1 rounded-md border border-slate-300 px-3 py-2 font-normal"
              />
            </label>
            <label className="flex flex-col text-sm font-semibold">
              Year to
              <input
                type="number"
                name="yearMax"
                defaultValue={q.yearMax ?? ""}
                className="mt-1 rounded-md border border-slate-300 px-3 py-2 font-normal"
              />
            </label>
            <Select label="Title type" name="titleType" value={q.titleType}>
              <option value="">All Titles</option>
              {TITLE_OPTIONS.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </Select>
            <Select label="Runs/drives" name="runsDrives" value={q.runsDrives}>
              <option value="">Any</option>
              <option value="yes">Runs and drives</option>
              <option value="no">Does not run</option>
            </Select>
          </div>
        </details>
        <div className="flex gap-2 sm:col-span-2 lg:col-span-5">
          <button
            type="submit"
            className="rounded-md bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800"
          >
            Search
          </button>
          <Link
            to="/auctions"
            className="rounded-md px-4 py-2 text-sm font-semibold text-brand-700"
          >
            Clear filters
          </Link>
        </div>
      </Form>

      <p className="mt-5 font-semibold" aria-live="polite">
        {data.total.toLocaleString("en-US")} {data.total === 1 ? "auction" : "auctions"} found
      </p>

      {notice ? (
        <div
          role={notice.type === "error" ? "alert" : "status"}
          className={`fixed bottom-4 right-4 z-50 max-w-[420px] rounded-lg p-4 shadow-lg ${notice.type === "error" ? "bg-red-700 text-white" : "bg-slate-900 text-white"}`}
        >
          <p className="font-bold">{notice.title}</p>
          <p className="text-sm">{notice.description}</p>
        </div>
      ) : null}

      {loadingList ? (
        <div className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4">
          {Array.from({ length: 6 }, (_, i) => (
            <LotCardSkeleton key={i} />
          ))}
        </div>
      ) : vehicles.length === 0 ? (
        <div className="mt-8 rounded-lg border border-dashed border-slate-300 p-10 text-center">
          <h2 className="text-lg font-bold">No auctions found</h2>
          <p className="text-slate-600">Try adjusting your filters or check back later.</p>
        </div>
      ) : (
        <div className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4">
          {vehicles.map((lot) => (
            <LotCard
              key={lot.id}
              lot={lot}
              serverTime={data.serverTime}
              returnTo={returnTo}
              onBid={openBid}
            />
          ))}
        </div>
      )}

      {nextHref && !loadingList ? (
        <p className="mt-6 text-center">
          <Link
            to={nextHref}
            onClick={(event) => {
              if (!hydrated) return;
              event.preventDefault();
              more.load(nextHref);
            }}
            className="inline-flex rounded-md border border-brand-700 px-5 py-2 font-semibold text-brand-700 hover:bg-brand-50"
          >
            {more.state === "loading" ? "Loading..." : "Load More Auctions"}
          </Link>
        </p>
      ) : null}

      {dialogOpened ? (
        <Suspense fallback={null}>
          <BidDialog
            dialog={dialog}
            onClose={() => setDialog(null)}
            bidder={dialogBidder}
            lastResult={bid.data?.result}
            pending={bid.state !== "idle"}
            redirectTo={returnTo}
            hydrated={hydrated}
            FormComponent={bid.Form}
          />
        </Suspense>
      ) : null}
    </div>
  );
}

function Select({
  label,
  name,
  value,
  children,
}: {
  label: string;
  name: string;
  value: string | undefined;
  children: React.ReactNode;
}) {
  return (
    <label className="flex flex-col text-sm font-semibold">
      {label}
      <select
        name={name}
        defaultValue={value ?? ""}
        className="mt-1 rounded-md border border-slate-300 px-3 py-2 font-normal"
      >
        {children}
      </select>
    </label>
  );
}
