import { Form, Link, useLocation } from "@remix-run/react";
import type { AuctionFilterOptions } from "~/services/auctions/filter-options.server";
import type { IgnoredAuctionFilter } from "~/services/auctions/lots.server";
import {
  AUCTION_HOUSE_OPTIONS,
  SORT_OPTIONS,
  damageGroupsWithChosen,
  facetLabel,
  optionsWithChosen,
  type FacetOption,
} from "~/services/auctions/options";
import type { AuctionQuery } from "~/services/auctions/schemas";

type Problems = Partial<Record<keyof AuctionQuery, IgnoredAuctionFilter>>;

/**
 * The list's filters: a plain GET form, so they work without JavaScript and in the address. The
 * choices are the open lots' own, with counts; a value the search left out stays in its field
 * with the reason under it.
 */
export function AuctionFilters({
  query,
  options,
  ignored = [],
}: {
  query: AuctionQuery;
  options: AuctionFilterOptions;
  ignored?: IgnoredAuctionFilter[];
}) {
  const location = useLocation();
  const problems: Problems = Object.fromEntries(ignored.map((filter) => [filter.key, filter]));
  return (
    <Form
      key={location.search}
      method="get"
      action="/auctions"
      className="mt-5 grid gap-3 rounded-lg border border-slate-200 bg-white p-4 sm:grid-cols-2 lg:grid-cols-5"
      aria-label="Filter auctions"
    >
      <Select
        label="Auction house"
        name="auctionHouse"
        value={query.auctionHouse}
        problems={problems}
      >
        <option value="">All Houses</option>
        {AUCTION_HOUSE_OPTIONS.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </Select>
      <Select label="Make" name="make" value={query.make} problems={problems}>
        <option value="">All Makes</option>
        <FacetOptions options={optionsWithChosen(options.makes, query.make)} />
      </Select>
      {/* the houses' own damage names, as the cards show them, grouped by kind (record 3310) */}
      <Select label="Primary damage" name="damage" value={query.damage} problems={problems}>
        <option value="">All Damage</option>
        {damageGroupsWithChosen(options.damages, query.damage).map((group) => (
          <optgroup key={group.value} label={group.label}>
            <FacetOptions options={group.options} />
          </optgroup>
        ))}
      </Select>
      {/* a link from before the houses' names (?damageType=hail) keeps filtering */}
      {query.damageType ? <input type="hidden" name="damageType" value={query.damageType} /> : null}
      <Select label="Location" name="location" value={query.location} problems={problems}>
        <option value="">All Locations</option>
        <FacetOptions options={optionsWithChosen(options.states, query.location)} />
      </Select>
      <Input
        label="Search make, model or VIN"
        name="search"
        type="search"
        value={query.search}
        problems={problems}
      />
      <details
        className="sm:col-span-2 lg:col-span-5"
        open={Boolean(
          query.yearMin ||
          query.yearMax ||
          query.titleType ||
          query.runsDrives ||
          problems.yearMin ||
          problems.yearMax ||
          problems.titleType ||
          problems.runsDrives,
        )}
      >
        <summary className="cursor-pointer text-sm font-semibold text-brand-700">
          More Filters
        </summary>
        <div className="mt-3 grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
          <Input
            label="Year from"
            name="yearMin"
            inputMode="numeric"
            value={query.yearMin}
            problems={problems}
          />
          <Input
            label="Year to"
            name="yearMax"
            inputMode="numeric"
            value={query.yearMax}
            problems={problems}
          />
          <Select label="Title type" name="titleType" value={query.titleType} problems={problems}>
            <option value="">All Titles</option>
            <FacetOptions options={optionsWithChosen(options.titleTypes, query.titleType)} />
          </Select>
          <Select
            label="Runs/drives"
            name="runsDrives"
            value={query.runsDrives}
            problems={problems}
          >
            <option value="">Any</option>
            <option value="yes">Runs and drives</option>
            <option value="no">Does not run</option>
          </Select>
        </div>
      </details>
      <div className="flex flex-wrap items-end gap-2 sm:col-span-2 lg:col-span-5">
        <div className="flex min-w-0 flex-col">
          <label htmlFor="filter-sort" className="text-sm font-semibold">
            Sort by
          </label>
          <select
            id="filter-sort"
            name="sort"
            defaultValue={query.sort ?? "ending"}
            // with JavaScript a new order applies at once; without it, with Search
            onChange={(event) => event.currentTarget.form?.requestSubmit()}
            className="mt-1 min-w-0 rounded-md border border-slate-300 px-3 py-2 text-sm"
          >
            {SORT_OPTIONS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </div>
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

function FacetOptions({ options }: { options: FacetOption[] }) {
  return (
    <>
      {options.map((option) => (
        <option key={option.value} value={option.value}>
          {facetLabel(option)}
        </option>
      ))}
    </>
  );
}

const errorId = (name: string) => `filter-${name}-error`;

/** The field's invalid state and its message, when the search left its value out. */
function problemProps(name: keyof AuctionQuery, problems: Problems) {
  return problems[name] ? { "aria-invalid": true as const, "aria-describedby": errorId(name) } : {};
}

function Problem({ name, problems }: { name: keyof AuctionQuery; problems: Problems }) {
  const problem = problems[name];
  return problem ? (
    <p id={errorId(name)} className="mt-1 text-sm font-normal text-red-700">
      {problem.problem}
    </p>
  ) : null;
}

function Input({
  label,
  name,
  value,
  problems,
  type = "text",
  inputMode,
}: {
  label: string;
  name: keyof AuctionQuery;
  value: string | number | undefined;
  problems: Problems;
  type?: "text" | "search";
  inputMode?: "numeric";
}) {
  const problem = problems[name];
  return (
    <div className="flex min-w-0 flex-col">
      <label htmlFor={`filter-${name}`} className="text-sm font-semibold">
        {label}
      </label>
      <input
        id={`filter-${name}`}
        type={type}
        name={name}
        inputMode={inputMode}
        // a value the search left out is shown as typed, so it can be corrected
        defaultValue={problem ? problem.value : (value ?? "")}
        {...problemProps(name, problems)}
        className="mt-1 min-w-0 rounded-md border border-slate-300 px-3 py-2 text-sm aria-[invalid=true]:border-red-500"
      />
      <Problem name={name} problems={problems} />
    </div>
  );
}

function Select({
  label,
  name,
  value,
  problems,
  children,
}: {
  label: string;
  name: keyof AuctionQuery;
  value: string | undefined;
  problems: Problems;
  children: React.ReactNode;
}) {
  return (
    <div className="flex min-w-0 flex-col">
      <label htmlFor={`filter-${name}`} className="text-sm font-semibold">
        {label}
      </label>
      <select
        id={`filter-${name}`}
        name={name}
        defaultValue={value ?? ""}
        {...problemProps(name, problems)}
        className="mt-1 min-w-0 rounded-md border border-slate-300 px-3 py-2 text-sm aria-[invalid=true]:border-red-500"
      >
        {children}
      </select>
      <Problem name={name} problems={problems} />
    </div>
  );
}
