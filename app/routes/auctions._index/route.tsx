import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import {
  Link,
  useFetcher,
  useLoaderData,
  useLocation,
  useNavigation,
  useRevalidator,
} from "@remix-run/react";
import { lazy, memo, Suspense, useCallback, useEffect, useRef, useState } from "react";
import { LotCard, LotCardSkeleton, type CardLot } from "~/components/auctions/lot-card";
import { useLiveList } from "~/components/auctions/live-lot";
import {
  auctionQueryString,
  lenientAuctionQuery,
  searchLots,
} from "~/services/auctions/lots.server";
import { auctionFilterOptions } from "~/services/auctions/filter-options.server";
import type { AuctionVehicle } from "~/services/auctions/types";
import { buyingPower } from "~/services/auctions/buying-power.server";
import { REFRESH_MS } from "~/services/auctions/rules";
import { BuyingPowerFigure } from "~/components/auctions/buying-power";
import { readSession, requireUser } from "~/services/accounts/session.server";
import type { action as lotAction } from "../auctions.$lotId/route";
import { useHydrated } from "~/utils/use-hydrated";
import { useReturnFocus } from "~/utils/use-return-focus";
import { AuctionFilters } from "./filters";
import { SaveSearchForm } from "~/components/alerts/save-search-form";
import { guardLoader } from "~/http/route-guards.server";
import { replicaReads } from "~/http/replica-reads";

// The bid dialog (Headless UI, conform and zod: about 50 KB gzipped) loads on the first Bid click;
// without JavaScript the card's Bid link goes to the lot page's own form.
const BidDialog = lazy(() => import("~/components/auctions/bid-dialog.client"));

export const meta: MetaFunction = () => [{ title: "Live Auctions · BidYard" }];

export const loader = (args: LoaderFunctionArgs) => guardLoader(args, load);
export const handle = replicaReads;

async function load({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const url = new URL(request.url);
  // A value a person typed that cannot be used is left out and named under its field, never a
  // page of its own (docs/decisions/2804).
  const { query, ignored, notices } = lenientAuctionQuery(url.searchParams);
  // what the deposit holds came with the user, in the page's one session read (2903)
  const held = (await readSession(request))?.held;
  const [page, bidder, options] = await Promise.all([
    searchLots(query, user.id),
    buyingPower(user, { held }),
    auctionFilterOptions(),
  ]);
  return {
    ...page,
    query,
    ignored,
    notices,
    options,
    bidder,
    savedQuery: auctionQueryString(query),
  };
}

type Notice = { title: string; description: string; type: "success" | "info" | "error" };

// the filters and the saved-search form read the loader's data only: the list's live events and
// dialogs leave them as they are (docs/decisions/3414)
const Filters = memo(AuctionFilters);
const SaveSearch = memo(SaveSearchForm);

type Extra = { vehicles: AuctionVehicle[]; nextCursor: string | null };
const NO_EXTRA: Extra = { vehicles: [], nextCursor: null };

export default function AuctionsPage() {
  const data = useLoaderData<typeof loader>();
  const location = useLocation();
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  const hydrated = useHydrated();
  const more = useFetcher<typeof loader>();
  const bid = useFetcher<typeof lotAction>();
  const [extra, setExtra] = useState<Extra>(NO_EXTRA);
  const [dialog, setDialog] = useState<{ lot: AuctionVehicle; proxy: boolean } | null>(null);
  const [dialogOpened, setDialogOpened] = useState(false);
  if (dialog && !dialogOpened) setDialogOpened(true);
  useReturnFocus(dialog !== null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const handled = useRef<unknown>(null);

  // a new search starts from its first page again, in the same render
  const [search, setSearch] = useState(location.search);
  if (search !== location.search) {
    setSearch(location.search);
    setExtra(NO_EXTRA);
  }

  useEffect(() => {
    if (more.state !== "idle" || !more.data) return;
    const page = more.data;
    // eslint-disable-next-line react-hooks/set-state-in-effect -- appends each page the fetcher brings from the network, once
    setExtra((current) => ({
      vehicles: [
        ...current.vehicles,
        ...page.vehicles.filter((v) => !current.vehicles.some((c) => c.id === v.id)),
      ],
      nextCursor: page.nextCursor,
    }));
  }, [more.state, more.data]);

  const vehicles = [
    ...data.vehicles,
    ...extra.vehicles.filter((v) => !data.vehicles.some((d) => d.id === v.id)),
  ];
  // the cards update in place from the list's stream; polling only while it is down (record 1801)
  const live = useLiveList(vehicles, data.serverTime);
  // the list refreshes while the page is visible and no dialog is open (bids change prices)
  useEffect(() => {
    const timer = setInterval(() => {
      if (document.visibilityState !== "visible" || dialog || live.streaming) return;
      if (revalidator.state === "idle" && navigation.state === "idle") revalidator.revalidate();
    }, REFRESH_MS);
    return () => clearInterval(timer);
  }, [revalidator, navigation.state, dialog, live.streaming]);

  useEffect(() => {
    if (bid.state !== "idle" || !bid.data || handled.current === bid.data) return;
    handled.current = bid.data;
    if (bid.data.toast && bid.data.toast.type !== "error") {
      // eslint-disable-next-line react-hooks/set-state-in-effect -- answers the bid fetcher's response once (handled), beside a revalidation
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

  const nextCursor = extra.vehicles.length > 0 ? extra.nextCursor : data.nextCursor;
  const params = new URLSearchParams(location.search);
  params.delete("cursor");
  const nextHref = nextCursor
    ? `/auctions?${new URLSearchParams([...params, ["cursor", nextCursor]]).toString()}`
    : null;
  const returnTo = `/auctions${location.search}`;
  const loadingList =
    navigation.state === "loading" && navigation.location?.pathname === "/auctions";

  // one function for every render, so the cards (memo) render again only when their lot changes
  const openBid = useCallback(
    (lot: CardLot, proxy: boolean, event: React.MouseEvent) => {
      if (!hydrated) return;
      event.preventDefault();
      // someone who may not bid yet gets the dialog too: it says what to do, with links
      setDialog({ lot: lot as AuctionVehicle, proxy });
    },
    [hydrated],
  );

  return (
    <div className="mx-auto max-w-7xl px-3 py-6 sm:px-6">
      <h1 className="text-2xl font-black sm:text-3xl">Live Auctions</h1>
      <p className="mt-1 text-slate-600">
        Copart and IAAI lots, with badges and countdowns from the auction clock.{" "}
        <Link to="/auctions/results" className="text-brand-700 underline">
          See what lots sold for
        </Link>
      </p>
      <BuyingPowerFigure available={data.bidder.available} className="mt-2 text-sm" />

      <Filters query={data.query} options={data.options} ignored={data.ignored} />
      <SaveSearch scope="auctions" search={data.savedQuery} className="mt-3" />
      {data.ignored.length > 0 || data.notices.length > 0 ? (
        <div
          role="status"
          className="mt-3 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900"
        >
          {data.ignored.length > 0 ? (
            <p className="font-semibold">
              {data.ignored.length === 1
                ? "One filter could not be used, so these results leave it out (see the field above)."
                : `${data.ignored.length} filters could not be used, so these results leave them out (see the fields above).`}
            </p>
          ) : null}
          {data.notices.map((notice) => (
            <p key={notice}>{notice}</p>
          ))}
        </div>
      ) : null}

      <p className="mt-5 font-semibold" aria-live="polite">
        {data.total.toLocaleString("en-US")}
        {data.totalCapped ? "+" : ""} {data.total === 1 ? "auction" : "auctions"} found
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
              lot={live.apply(lot)}
              serverTime={live.serverTime}
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
            bidder={data.bidder}
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
