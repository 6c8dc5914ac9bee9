// The two GET forms of /community-vehicles: the hero's quick finder and the full filters. Both
// submit to the server, so a search is a shareable address and works without JavaScript.
import { Form, Link, useNavigate } from "@remix-run/react";
import type { FormEvent, ReactNode } from "react";
import { CURRENCIES, CURRENCY_NAMES, capitalise } from "~/services/listings/fields";
import { describeRates, type RatesInForce } from "~/services/listings/exchange-rates";
import type { ListingFilterOptions } from "~/services/listings/filter-options.server";
import { facetLabel, optionsWithChosen, type FacetOption } from "~/services/auctions/options";
import { MIN_YEAR, maxListingYear } from "~/services/listings/rules";
import type { FilterKey, IgnoredFilter, ListingFilters } from "~/services/listings/schemas";

const field =
  "mt-1 block w-full rounded-md border border-slate-300 bg-white px-2.5 py-2 text-sm text-slate-900";
const labelClass = "block text-xs font-semibold text-slate-600";

/**
 * With JS, a search leaves empty fields out of the address so shared links stay short; without
 * JS the browser submits the GET form itself and the server ignores the empty values.
 */
function useCleanSearchSubmit() {
  const navigate = useNavigate();
  return (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const params = new URLSearchParams();
    for (const [key, value] of new FormData(event.currentTarget)) {
      if (typeof value === "string" && value.trim()) params.append(key, value.trim());
    }
    const query = params.toString();
    navigate(query ? `/community-vehicles?${query}` : "/community-vehicles");
  };
}

/** A GET form to /community-vehicles under its own heading (`${id}-heading`). */
function SearchForm({
  id,
  heading,
  className,
  children,
}: {
  id: string;
  heading: string;
  className: string;
  children: ReactNode;
}) {
  const onSubmit = useCleanSearchSubmit();
  return (
    <Form
      method="get"
      action="/community-vehicles"
      onSubmit={onSubmit}
      aria-labelledby={`${id}-heading`}
      className={className}
    >
      <h2 id={`${id}-heading`} className="text-lg font-bold">
        {heading}
      </h2>
      {children}
    </Form>
  );
}

/** The hero's quick search: make, model and a year range, on the same GET query as the filters. */
export function VehicleAutoFinder({
  filters,
  years,
  makes,
}: {
  filters: ListingFilters;
  years: number[];
  /** The makes the active listings carry, with counts. */
  makes: FacetOption[];
}) {
  return (
    <SearchForm
      id="finder"
      heading="Vehicle Auto Finder"
      className="rounded-xl bg-white p-4 text-slate-900 shadow-lg"
    >
      <div className="mt-3 grid grid-cols-2 gap-3">
        <label className={labelClass}>
          Make
          <select name="make" defaultValue={filters.make ?? ""} className={field}>
            <option value="">Any make</option>
            <Facets options={optionsWithChosen(makes, filters.make)} />
          </select>
        </label>
        <label className={labelClass}>
          Model
          <input
            name="model"
            defaultValue={filters.model ?? ""}
            placeholder="Any model"
            className={field}
          />
        </label>
        <label className={labelClass}>
          From year
          <select name="yearMin" defaultValue={filters.yearMin ?? ""} className={field}>
            <option value="">Any</option>
            {years.map((year) => (
              <option key={year}>{year}</option>
            ))}
          </select>
        </label>
        <label className={labelClass}>
          To year
          <select name="yearMax" defaultValue={filters.yearMax ?? ""} className={field}>
            <option value="">Any</option>
            {years.map((year) => (
              <option key={year}>{year}</option>
            ))}
          </select>
        </label>
      </div>
      <button
        type="submit"
        className="mt-4 w-full rounded-lg bg-accent-500 px-4 py-2.5 font-semibold text-slate-900 hover:bg-accent-600"
      >
        Start Search
      </button>
    </SearchForm>
  );
}

type Problems = Partial<Record<FilterKey, IgnoredFilter>>;

function Facets({ options }: { options: FacetOption[] }) {
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

const errorId = (name: FilterKey) => `filter-${name}-error`;

/**
 * A filter field's attributes: the value to show (a value the search left out is shown as typed,
 * so it can be corrected) and, when it was left out, aria-invalid tied to its message.
 */
function fieldProps(name: FilterKey, value: string | number | undefined, problems: Problems) {
  const problem = problems[name];
  return {
    name,
    defaultValue: problem ? problem.value : (value ?? ""),
    "aria-invalid": problem ? true : undefined,
    "aria-describedby": problem ? errorId(name) : undefined,
  };
}

function FieldError({ name, problems }: { name: FilterKey; problems: Problems }) {
  const problem = problems[name];
  return problem ? (
    <p id={errorId(name)} className="mt-1 text-xs font-medium text-red-700">
      {capitalise(problem.problem)}
    </p>
  ) : null;
}

/** A labelled field with its error below it (outside the label, so the name stays short). */
function Labelled({
  label,
  name,
  problems,
  children,
}: {
  label: string;
  name: FilterKey;
  problems: Problems;
  children: ReactNode;
}) {
  return (
    <div>
      <label className={labelClass}>
        {label}
        {children}
      </label>
      <FieldError name={name} problems={problems} />
    </div>
  );
}

/** A From and a To input under one legend. */
function RangeFields({
  legend,
  names,
  values,
  inputMode,
  problems,
  placeholders = [undefined, undefined],
}: {
  legend: string;
  names: [FilterKey, FilterKey];
  values: [string | number | undefined, string | number | undefined];
  inputMode: "numeric" | "decimal";
  problems: Problems;
  placeholders?: [string | undefined, string | undefined];
}) {
  return (
    <fieldset className="grid grid-cols-2 gap-2">
      <legend className={labelClass}>{legend}</legend>
      {(["From", "To"] as const).map((bound, i) => (
        <div key={bound}>
          <label className={labelClass}>
            <span className="sr-only">{legend} </span>
            {bound}
            <input
              {...fieldProps(names[i], values[i], problems)}
              inputMode={inputMode}
              placeholder={placeholders[i]}
              className={field}
            />
          </label>
          <FieldError name={names[i]} problems={problems} />
        </div>
      ))}
    </fieldset>
  );
}

/**
 * Every filter, applied on the server through a GET form: shareable, works without JS. A value
 * the search left out (`ignored`) stays in its field, marked invalid with the reason beside it.
 */
export function VehicleFilters({
  filters,
  ignored = [],
  options,
  rates,
}: {
  filters: ListingFilters;
  ignored?: IgnoredFilter[];
  /** The choices the active listings carry, with counts. */
  options: ListingFilterOptions;
  /** The rates prices in other currencies are compared at, named under the price range. */
  rates: RatesInForce;
}) {
  const problems: Problems = Object.fromEntries(ignored.map((filter) => [filter.key, filter]));
  const props = (name: FilterKey) => fieldProps(name, filters[name], problems);
  return (
    <SearchForm
      id="filters"
      heading="Filters"
      className="h-fit space-y-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
    >
      <Labelled label="Search" name="search" problems={problems}>
        <input
          type="search"
          {...props("search")}
          placeholder="Title, make, model, description"
          className={field}
        />
      </Labelled>
      <Labelled label="Make" name="make" problems={problems}>
        <input {...props("make")} list="filter-makes" className={field} />
        <datalist id="filter-makes">
          {options.makes.map((make) => (
            <option key={make.value} value={make.value} label={facetLabel(make)} />
          ))}
        </datalist>
      </Labelled>
      <Labelled label="Model" name="model" problems={problems}>
        <input {...props("model")} className={field} />
      </Labelled>
      <RangeFields
        legend="Year"
        names={["yearMin", "yearMax"]}
        values={[filters.yearMin, filters.yearMax]}
        inputMode="numeric"
        problems={problems}
        placeholders={[String(MIN_YEAR), String(maxListingYear())]}
      />
      <RangeFields
        legend="Price"
        names={["priceMin", "priceMax"]}
        values={[filters.priceMin, filters.priceMax]}
        inputMode="decimal"
        problems={problems}
      />
      <div>
        <Labelled label="Prices in" name="currency" problems={problems}>
          <select
            {...props("currency")}
            aria-describedby={
              problems.currency ? `${errorId("currency")} filter-rates` : "filter-rates"
            }
            className={field}
          >
            {CURRENCIES.map((currency) => (
              <option key={currency} value={currency === "USD" ? "" : currency}>
                {CURRENCY_NAMES[currency]}
              </option>
            ))}
          </select>
        </Labelled>
        <p id="filter-rates" className="mt-1 text-xs text-slate-600">
          Listings in other currencies are compared at {describeRates(rates)}.
        </p>
      </div>
      <Labelled label="Condition" name="condition" problems={problems}>
        <select {...props("condition")} className={field}>
          <option value="">Any condition</option>
          <Facets options={optionsWithChosen(options.conditions, filters.condition)} />
        </select>
      </Labelled>
      <Labelled label="Body type" name="bodyType" problems={problems}>
        <select {...props("bodyType")} className={field}>
          <option value="">Any body type</option>
          <Facets options={optionsWithChosen(options.bodyTypes, filters.bodyType)} />
        </select>
      </Labelled>
      <Labelled label="Country" name="country" problems={problems}>
        <select {...props("country")} className={field}>
          <option value="">Any country</option>
          <Facets options={optionsWithChosen(options.countries, filters.country)} />
        </select>
      </Labelled>
      <Labelled label="State/Province" name="state" problems={problems}>
        <input {...props("state")} className={field} />
      </Labelled>
      <Labelled label="City" name="city" problems={problems}>
        <input {...props("city")} className={field} />
      </Labelled>
      <div className="flex flex-col gap-2 pt-2">
        <button
          type="submit"
          className="rounded-lg bg-brand-700 px-4 py-2.5 font-semibold text-white hover:bg-brand-800"
        >
          Apply Filters
        </button>
        <Link
          to="/community-vehicles"
          className="text-center text-sm font-semibold text-brand-700 underline"
        >
          Clear All Filters
        </Link>
      </div>
    </SearchForm>
  );
}
