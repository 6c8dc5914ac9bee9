import { Link } from "@remix-run/react";
import { listingsLeft, type ListingAllowance } from "~/services/listings/rules";

/** The signed-in user's listing counts on /community-vehicles, beside the Post Vehicle button. */
export function ListingDashboard({ allowance }: { allowance: ListingAllowance }) {
  const stats = [
    { label: "Active Listings", value: String(allowance.activeListings) },
    { label: "Total Listed", value: String(allowance.totalListings) },
    {
      label: "Free Listings Left",
      value: allowance.unlimited ? "Unlimited" : String(listingsLeft(allowance)),
    },
  ];
  return (
    <section
      aria-labelledby="dashboard-heading"
      className="flex flex-wrap items-center gap-4 rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
    >
      <h2 id="dashboard-heading" className="w-full text-lg font-bold sm:w-auto">
        Listing Dashboard
      </h2>
      <dl className="flex flex-1 flex-wrap gap-6">
        {stats.map((stat) => (
          <div key={stat.label}>
            <dt className="text-xs font-semibold uppercase tracking-wide text-slate-500">
              {stat.label}
            </dt>
            <dd className="text-2xl font-black text-slate-900">{stat.value}</dd>
          </div>
        ))}
      </dl>
      <Link
        to="/post-vehicle"
        className="rounded-lg bg-brand-700 px-5 py-2.5 font-semibold text-white hover:bg-brand-800"
      >
        Post Vehicle
      </Link>
    </section>
  );
}
