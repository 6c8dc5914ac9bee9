// The two GET forms of /community-vehicles: the hero's quick finder and the full filters. Both
// submit to the server, so a search is a shareable address and works without JavaScript.
import { Form, Link, useNavigate } from "@remix-run/react";
import type { FormEvent, ReactNode } from "react";
import {
  BODY_TYPES,
  BODY_TYPE_LABELS,
  CONDITIONS,
  COUNTRIES,
  COUNTRY_NAMES,
  POPULAR_MAKES,
  capitalise,
} from "~/modules/listings/fields";
import { MIN_YEAR, maxListingYear } from "~/modules/listings/rules";
import type { ListingFilters } from "~/modules/listings/schemas";

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
}: {
  filters: ListingFilters;
  years: number[];
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
            {POPULAR_MAKES.map((make) => (
              <option key={make}>{make}</option>
            ))}
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

/** A Min and a Max input under one legend. */
function RangeFields({
  legend,
  names,
  values,
  inputMode,
  placeholders = [undefined, undefined],
}: {
  legend: string;
  names: [string, string];
  values: [string | number | undefined, string | number | undefined];
  inputMode: "numeric" | "decimal";
  placeholders?: [string | undefined, string | undefined];
}) {
  return (
    <fieldset className="grid grid-cols-2 gap-2">
      <legend className={labelClass}>{legend}</legend>
      {(["Min", "Max"] as const).map((bound, i) => (
        <label key={bound} className={labelClass}>
          <span className="sr-only">{legend} </span>
          {bound}
          <input
            name={names[i]}
            inputMode={inputMode}
            placeholder={placeholders[i]}
            defaultValue={values[i] ?? ""}
            className={field}
          />
        </label>
      ))}
    </fieldset>
  );
}

/** Every filter, applied on the server through a GET form: shareable, works without JS. */
export function VehicleFilters({ filters }: { filters: ListingFilters }) {
  return (
    <SearchForm
      id="filters"
      heading="Filters"
      className="h-fit space-y-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
    >
      <label className={labelClass}>
        Search
        <input
          type="search"
          name="search"
          defaultValue={filters.search ?? ""}
          placeholder="Title, make, model, description"
          className={field}
        />
      </label>
      <label className={labelClass}>
        Make
        <input
          name="make"
          list="filter-makes"
          defaultValue={filters.make ?? ""}
          className={field}
        />
        <datalist id="filter-makes">
          {POPULAR_MAKES.map((make) => (
            <option key={make} value={make} />
          ))}
        </datalist>
      </label>
      <label className={labelClass}>
        Model
        <input name="model" defaultValue={filters.model ?? ""} className={field} />
      </label>
      <RangeFields
        legend="Year"
        names={["yearMin", "yearMax"]}
        values={[filters.yearMin, filters.yearMax]}
        inputMode="numeric"
        placeholders={[String(MIN_YEAR), String(maxListingYear())]}
      />
      <RangeFields
        legend="Price"
        names={["priceMin", "priceMax"]}
        values={[filters.priceMin, filters.priceMax]}
        inputMode="decimal"
      />
      <label className={labelClass}>
        Condition
        <select name="condition" defaultValue={filters.condition ?? ""} className={field}>
          <option value="">Any condition</option>
          {CONDITIONS.map((condition) => (
            <option key={condition} value={condition}>
              {capitalise(condition)}
            </option>
          ))}
        </select>
      </label>
      <label className={labelClass}>
        Body type
        <select name="bodyType" defaultValue={filters.bodyType ?? ""} className={field}>
          <option value="">Any body type</option>
          {BODY_TYPES.map((type) => (
            <option key={type} value={type}>
              {BODY_TYPE_LABELS[type]}
            </option>
          ))}
        </select>
      </label>
      <label className={labelClass}>
        Country
        <select name="country" defaultValue={filters.country ?? ""} className={field}>
          <option value="">Any country</option>
          {COUNTRIES.map((country) => (
            <option key={country} value={country}>
              {COUNTRY_NAMES[country]}
            </option>
          ))}
        </select>
      </label>
      <label className={labelClass}>
        State/Province
        <input name="state" defaultValue={filters.state ?? ""} className={field} />
      </label>
      <label className={labelClass}>
        City
        <input name="city" defaultValue={filters.city ?? ""} className={field} />
      </label>
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
