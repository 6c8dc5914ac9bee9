import type {
  ActionFunctionArgs,
  LoaderFunctionArgs,
  MetaFunction,
  SerializeFrom,
} from "@remix-run/node";
import {
  Link,
  useFetcher,
  useLoaderData,
  useLocation,
  useNavigation,
  type ShouldRevalidateFunction,
} from "@remix-run/react";
import { useEffect, useState } from "react";
import { ListingCardSkeleton, ListingCardView } from "~/components/listings/listing-card";
import {
  ListingDashboard,
  VehicleAutoFinder,
  VehicleFilters,
} from "~/components/listings/community-panels";
import { listingAllowance } from "~/modules/listings/allowance.server";
import {
  ListingNotFoundError,
  isListingCursor,
  lenientListingFilters,
  searchListings,
  setFavorite,
  type ListingCard,
} from "~/modules/listings/listings.server";
import { getUser, requireUser } from "~/modules/accounts/session.server";
import { redirectWithToast } from "~/http/toast.server";
import { finderYears } from "~/modules/listings/fields";
import { BAD_CURSOR_NOTICE, favoriteToast } from "~/modules/listings/messages";
import { safeRedirect } from "~/http/http.server";
import { useOptionalUser } from "~/modules/accounts/use-user";

export const meta: MetaFunction = () => [
  { title: "Community Vehicles · BidYard" },
  {
    name: "description",
    content: "Used vehicles for sale by owners in the US, Canada and Mexico.",
  },
];

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const user = await getUser(request);
  const { filters, ignored } = lenientListingFilters(url.searchParams);
  // A page link is shared and edited by hand: a cursor that is not ours shows the first page.
  const asked = url.searchParams.get("cursor") || null;
  const cursor = asked && isListingCursor(asked) ? asked : null;
  const notice = asked && !cursor ? BAD_CURSOR_NOTICE : null;
  const [page, allowance] = await Promise.all([
    searchListings(filters, { cursor, viewerId: user?.id }),
    user ? listingAllowance(user.id) : null,
  ]);
  return { filters, ignored, page, cursor, notice, allowance, years: finderYears() };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const form = await request.formData();
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
  useEffect(() => setMore({ listings: [], nextCursor: null }), [page]);
  useEffect(() => {
    const next = fetcher.data?.page;
    if (!next) return;
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
  const { filters, ignored, page, cursor, notice, allowance, years } =
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
      <section className="bg-gradient-to-br from-brand-800 via-brand-700 to-slate-900 text-white">
        <div className="mx-auto grid max-w-7xl gap-8 px-4 py-10 sm:px-6 lg:grid-cols-[1.2fr_1fr]">
          <div>
            <h1 className="text-3xl font-black sm:text-4xl">Community Vehicles</h1>
            <p className="mt-3 max-w-xl text-blue-100">
              Buy straight from owners across the US, Canada and Mexico, or post your own vehicle.
            </p>
            <div className="mt-6 flex flex-wrap gap-3">
              <Link
                to="/community-vehicles#results"
                className="rounded-lg bg-accent-500 px-5 py-2.5 font-semibold text-slate-900 hover:bg-accent-600"
              >
                Buy It Now
              </Link>
              <Link
                to="/community-vehicles?condition=excellent"
                className="rounded-lg bg-white/10 px-5 py-2.5 font-semibold text-white ring-1 ring-white/40 hover:bg-white/20"
              >
                Clean Title
              </Link>
              <Link
                to="/auctions"
                className="rounded-lg bg-white/10 px-5 py-2.5 font-semibold text-white ring-1 ring-white/40 hover:bg-white/20"
              >
                Auction Today
              </Link>
            </div>
          </div>
          <VehicleAutoFinder filters={filters} years={years} />
        </div>
      </section>

      <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6">
        {user && allowance ? <ListingDashboard allowance={allowance} /> : null}

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
              <VehicleFilters filters={filters} key={location.search} />
            </div>
          </div>

          <section id="results" aria-labelledby="results-heading">
            <div className="flex flex-wrap items-baseline justify-between gap-2">
              <h2 id="results-heading" className="text-xl font-bold" aria-live="polite">
                {page.total.toLocaleString("en-US")}
                {page.totalCapped ? "+" : ""} vehicles found
              </h2>
              {cursor ? (
                <Link
                  to={`/community-vehicles?${firstPageParams}`}
                  className="text-sm font-semibold text-brand-700 underline"
                >
                  Back to the first page
                </Link>
              ) : null}
            </div>
            {notice ? (
              <p role="status" className="mt-2 text-sm text-amber-800">
                {notice}
              </p>
            ) : null}
            {ignored.length > 0 ? (
              <p role="status" className="mt-2 text-sm text-amber-800">
                Some filters were not understood and were left out: {ignored.join(", ")}.
              </p>
            ) : null}

            {searching ? (
              <div className="mt-4 grid gap-4 sm:grid-cols-2 xl:grid-cols-3" aria-busy="true">
                {Array.from({ length: 6 }, (_, i) => (
                  <ListingCardSkeleton key={i} />
                ))}
              </div>
            ) : listings.length === 0 ? (
              <div className="mt-4 rounded-xl border border-dashed border-slate-300 bg-white px-6 py-12 text-center">
                <p className="text-lg font-bold text-slate-900">No vehicles found</p>
                <p className="mt-1 text-slate-600">Try adjusting your filters.</p>
                {user ? (
                  <Link
                    to="/post-vehicle"
                    className="mt-4 inline-flex rounded-lg bg-brand-700 px-5 py-2.5 font-semibold text-white hover:bg-brand-800"
                  >
                    Post Your Vehicle
                  </Link>
                ) : null}
              </div>
            ) : (
              <>
                <ul className="mt-4 grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
                  {listings.map((listing) => (
                    <li key={listing.id}>
                      <ListingCardView
                        listing={listing}
                        returnTo={returnTo}
                        signedIn={Boolean(user)}
                      />
                    </li>
                  ))}
                </ul>
                {nextCursor ? (
                  <div className="mt-6 flex justify-center">
                    <Link
                      to={`/community-vehicles?${nextParams}`}
                      onClick={(event) => {
                        event.preventDefault();
                        loadMore(nextCursor);
                      }}
                      className="rounded-lg border border-brand-700 px-6 py-2.5 font-semibold text-brand-700 hover:bg-brand-50"
                    >
                      {loading ? "Loading..." : "Load more"}
                    </Link>
                  </div>
                ) : null}
              </>
            )}
          </section>
        </div>
      </div>
    </>
  );
}
