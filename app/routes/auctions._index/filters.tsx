import { Form, Link, useLocation } from "@remix-run/react";
import {
  AUCTION_HOUSE_OPTIONS,
  DAMAGE_OPTIONS,
  LOCATION_OPTIONS,
  MAKE_OPTIONS,
  TITLE_OPTIONS,
} from "~/services/auctions/options";
import type { AuctionQuery } from "~/services/auctions/schemas";

/** The list's filters: a plain GET form, so they work without JavaScript and in the address. */
export function AuctionFilters({ query }: { query: AuctionQuery }) {
  const location = useLocation();
  return (
    <Form
      key={location.search}
      method="get"
      action="/auctions"
      className="mt-5 grid gap-3 rounded-lg border border-slate-200 bg-white p-4 sm:grid-cols-2 lg:grid-cols-5"
      aria-label="Filter auctions"
    >
      <Select label="Auction house" name="auctionHouse" value={query.auctionHouse}>
        <option value="">All Houses</option>
        {AUCTION_HOUSE_OPTIONS.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </Select>
      <Select label="Make" name="make" value={query.make}>
        <option value="">All Makes</option>
        {MAKE_OPTIONS.map((make) => (
          <option key={make} value={make}>
            {make}
          </option>
        ))}
        {query.make && !(MAKE_OPTIONS as readonly string[]).includes(query.make) ? (
          <option value={query.make}>{query.make}</option>
        ) : null}
      </Select>
      <Select label="Damage type" name="damageType" value={query.damageType}>
        <option value="">All Damage Types</option>
        {DAMAGE_OPTIONS.map((d) => (
          <option key={d} value={d}>
            {d}
          </option>
        ))}
      </Select>
      <Select label="Location" name="location" value={query.location}>
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
          defaultValue={query.search ?? ""}
          className="mt-1 rounded-md border border-slate-300 px-3 py-2 font-normal"
        />
      </label>
      <details
        className="sm:col-span-2 lg:col-span-5"
        open={Boolean(query.yearMin || query.yearMax || query.titleType || query.runsDrives)}
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
              defaultValue={query.yearMin ?? ""}
              className="mt-1 rounded-md border border-slate-300 px-3 py-2 font-normal"
            />
          </label>
          <label className="flex flex-col text-sm font-semibold">
            Year to
            <input
              type="number"
              name="yearMax"
              defaultValue={query.yearMax ?? ""}
              className="mt-1 rounded-md border border-slate-300 px-3 py-2 font-normal"
            />
          </label>
          <Select label="Title type" name="titleType" value={query.titleType}>
            <option value="">All Titles</option>
            {TITLE_OPTIONS.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </Select>
          <Select label="Runs/drives" name="runsDrives" value={query.runsDrives}>
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
        <Link to="/auctions" className="rounded-md px-4 py-2 text-sm font-semibold text-brand-700">
          Clear filters
        </Link>
      </div>
    </Form>
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
