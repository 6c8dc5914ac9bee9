import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { ListingCardView } from "~/components/listings/listing-card";
import { requireUser } from "~/services/accounts/session.server";
import { listFavorites } from "~/services/listings/favorites.server";
import { guardLoader } from "~/http/route-guards.server";

export const meta: MetaFunction = () => [{ title: "Favorites · BidYard" }];

export const loader = (args: LoaderFunctionArgs) => guardLoader(args, load);

async function load({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return { favorites: await listFavorites(user.id) };
}

/** The community listings a person saved with the heart; removing one is the same heart. */
export default function FavoritesPage() {
  const { favorites } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto max-w-7xl px-3 py-6 sm:px-6">
      <h1 className="text-2xl font-black">Favorites</h1>
      <p className="mt-1 text-slate-600">
        Community vehicles you saved. Tap the heart to remove one.
      </p>
      {favorites.length === 0 ? (
        <div className="mt-8 rounded-lg border border-dashed border-slate-300 p-10 text-center">
          <h2 className="text-lg font-bold">No favorites yet</h2>
          <p className="text-slate-600">
            Save vehicles with the heart on{" "}
            <Link to="/community-vehicles" className="text-brand-700 underline">
              Community Vehicles
            </Link>
            .
          </p>
        </div>
      ) : (
        <ul className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4">
          {favorites.map((listing) => (
            <li key={listing.id} className="flex flex-col">
              {listing.sold ? (
                <p className="mb-1 text-sm font-semibold text-slate-700">Sold</p>
              ) : null}
              <ListingCardView listing={listing} returnTo="/favorites" signedIn />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
