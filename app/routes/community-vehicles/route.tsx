import type {
  ActionFunctionArgs,
  LoaderFunctionArgs,
  MetaFunction,
  SerializeFrom,
} from "@remix-run/node";
import {
  useFetcher,
  useLoaderData,
  useLocation,
  useNavigation,
  type ShouldRevalidateFunction,
} from "@remix-run/react";
import { useEffect, useState } from "react";
import { ListingDashboard } from "~/components/listings/listing-dashboard";
import { VehicleFilters } from "~/components/listings/search-forms";
import { listingAllowance } from "~/services/listings/allowance.server";
import {
  ListingNotFoundError,
  isListingCursor,
  lenientListingFilters,
  listingQueryString,
  searchListings,
  setFavorite,
  type ListingCard,
} from "~/services/listings/listings.server";
import { getUser, requireUser } from "~/services/accounts/session.server";
import { ratesInForce } from "~/services/listings/exchange-rates.server";
import { listingFilterOptions } from "~/services/listings/filter-options.server";
import { redirectWithToast } from "~/http/toast.server";
import { CURRENCY_NAMES, finderYears } from "~/services/listings/fields";
import { describeRates } from "~/services/listings/exchange-rates";
import { BAD_CURSOR_NOTICE, favoriteToast } from "~/services/listings/messages";
import { safeRedirect } from "~/http/http.server";
import { useOptionalUser } from "~/services/accounts/use-user";
import { CommunityHero } from "./hero";
import { Results } from "./results";
import { SaveSearchForm } from "~/components/alerts/save-search-form";
import { guardAction, guardLoader } from "~/http/route-guards.server";
import { readForm } from "~/http/form-body.server";
import { replicaReads } from "~/http/replica-reads";

export const meta: MetaFunction = () => [
  { title: "Community Vehicles · BidYard" },
  {
    name: "description",
    content: "Used vehicles for sale by owners in the US, Canada and Mexico.",
  },
];

export const loader = (args: LoaderFunctionArgs) => guardLoader(args, load);
export const handle = replicaReads;

async function load({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const user = await getUser(request);
  const { filters, ignored, notices: rangeNotices } = lenientListingFilters(url.searchParams);
  // A page link is shared and edited by hand: a cursor that is not ours shows the first page.
  const asked = url.searchParams.get("cursor") || null;
  const cursor = asked && isListingCursor(asked) ? asked : null;
  const notices = [...rangeNotices, ...(asked && !cursor ? [BAD_CURSOR_NOTICE] : [])];
  const [page, allowance, options, rates] = await Promise.all([
    searchListings(filters, { cursor, viewerId: user?.id }),
    user ? listingAllowance(user.id) : null,
    listingFilterOptions(),
    ratesInForce(),
  ]);
  return {
    filters,
    ignored,
    page,
    cursor,
    notices,
    allowance,
    options,
    rates,
    years: finderYears(),
    savedQuery: listingQueryString(filters),
  };
}

export const action = (args: ActionFunctionArgs) => guardAction(args, act);

async function act({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const form = await readForm(request);
  if (form.get("intent") !== "favorite") throw new Response("Unknown action", { status: 400 });
  const favorite = form.get("favorite") === "true";
  try {
    await setFavorite(user.id, String(form.get("listingId") ?? ""), favorite);
  } catch (error) {
    if (error instanceof ListingNotFoundError)
      throw new Response(error.message, { status: error.status });
    throw error;
  }
  if (form.get("stay") === "1") return { favorite };
  return redirectWithToast(
    safeRedirect(form.get("returnTo"), "/community-vehicles"),
    favoriteToast(favorite),
  );
}

// A favourite changes one button, not the results: keep the loaded pages as they are.
export const shouldRevalidate: ShouldRevalidateFunction = ({
  formData,
  defaultShouldRevalidate,
}) => (formData?.get("intent") === "favorite" ? false : defaultShouldRevalidate);

type LoaderData = SerializeFrom<typeof loader>;

function useAccumulatedPages(page: LoaderData["page"], search: string) {
  const fetcher = useFetcher<typeof loader>();
  const [more, setMore] = useState<{ listings: ListingCard[]; nextCursor: string | null }>({
    listings: [],
    nextCursor: null,
  });
  // a new first page (a new search) drops the pages loaded after the old one, in the same render
  const [first, setFirst] = useState(page);
  if (first !== page) {
    setFirst(page);
    setMore({ listings: [], nextCursor: null });
  }
  useEffect(() => {
    const next = fetcher.data?.page;
    if (!next) return;
    // eslint-disable-next-line react-hooks/set-state-in-effect -- appends each page the fetcher brings from the network
    setMore((current) => ({
      listings: [...current.listings, ...next.listings],
      nextCursor: next.nextCursor,
    }));
  }, [fetcher.data]);
  const listings = [...page.listings, ...more.listings];
  const nextCursor = more.listings.length > 0 ? more.nextCursor : page.nextCursor;
  const loadMore = (cursor: string) => {
    const params = new URLSearchParams(search);
    params.set("cursor", cursor);
    fetcher.load(`/community-vehicles?${params}`);
  };
  return { listings, nextCursor, loadMore, loading: fetcher.state === "loading" };
}

export default function CommunityVehicles() {
  const { filters, ignored, page, cursor, notices, allowance, options, rates, years, savedQuery } =
    useLoaderData<typeof loader>();
  const user = useOptionalUser();
  const location = useLocation();
  const navigation = useNavigation();
  const searching =
    navigation.state === "loading" && navigation.location.pathname === "/community-vehicles";
  const { listings, nextCursor, loadMore, loading } = useAccumulatedPages(page, location.search);
  const returnTo = `${location.pathname}${location.search}`;
  const activeFilters = Object.values(filters).filter((v) => v !== undefined).length;
  const nextParams = new URLSearchParams(location.search);
  if (nextCursor) nextParams.set("cursor", nextCursor);
  const firstPageParams = new URLSearchParams(location.search);
  firstPageParams.delete("cursor");

  return (
    <>
      <CommunityHero filters={filters} years={years} makes={options.makes} />
      <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6">
        {user && allowance ? <ListingDashboard allowance={allowance} /> : null}
        {user ? <SaveSearchForm scope="community" search={savedQuery} className="mt-6" /> : null}

        <div className="mt-6 grid gap-6 lg:grid-cols-[18rem_1fr]">
          {/* Small screens fold the filters behind a toggle (a checkbox: works without JS). */}
          <div>
            <input
              type="checkbox"
              id="show-filters"
              defaultChecked={activeFilters > 0}
              className="peer sr-only lg:hidden"
            />
            <label
              htmlFor="show-filters"
              className="flex cursor-pointer items-center justify-between rounded-xl border border-slate-200 bg-white px-4 py-3 font-semibold shadow-sm peer-focus-visible:focus-ring lg:hidden"
            >
              Show filters{activeFilters > 0 ? ` (${activeFilters} active)` : ""}
              <span aria-hidden="true">▾</span>
            </label>
            <div className="mt-2 hidden peer-checked:block lg:mt-0 lg:block">
              <VehicleFilters
                filters={filters}
                ignored={ignored}
                options={options}
                rates={rates}
                key={location.search}
              />
            </div>
          </div>

          <Results
            total={page.total}
            totalCapped={page.totalCapped}
            firstPageHref={cursor ? `/community-vehicles?${firstPageParams}` : null}
            notices={notices}
            ignored={ignored}
            searching={searching}
            listings={listings}
            nextHref={nextCursor ? `/community-vehicles?${nextParams}` : null}
            onLoadMore={() => nextCursor && loadMore(nextCursor)}
            loading={loading}
            returnTo={returnTo}
            signedIn={Boolean(user)}
            conversion={`≈ prices are in ${CURRENCY_NAMES[filters.currency ?? "USD"]}, at ${describeRates(rates)}.`}
          />
        </div>
      </div>
    </>
  );
}
