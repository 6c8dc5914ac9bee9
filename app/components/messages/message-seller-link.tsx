import { Link } from "@remix-run/react";

/** "Message the seller" on a listing page: the form lives at /messages/new (works without JS). */
export function MessageSellerLink({ listingId }: { listingId: string }) {
  return (
    <Link
      to={`/messages/new?listing=${encodeURIComponent(listingId)}`}
      className="mt-4 inline-flex w-full justify-center rounded-lg border border-brand-700 px-4 py-2 font-semibold text-brand-700 hover:bg-brand-50 focus-visible:focus-ring sm:w-auto"
    >
      Message the seller
    </Link>
  );
}
