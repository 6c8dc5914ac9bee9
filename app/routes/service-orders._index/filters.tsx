// The job board's filters: a GET form, so the filtered list has its own URL and works without JS.
import { Form, Link } from "@remix-run/react";
import { inputClass, labelClass, primaryButton, secondaryButton } from "~/components/affiliates/ui";
import type { ServiceOrderFilters } from "~/services/affiliates/schemas";
import { PICKUP_STATE_OPTIONS, VEHICLE_TYPE_OPTIONS } from "~/services/affiliates/schemas";
import { vehicleTypeLabel } from "~/services/affiliates/rules";

const selectOptions = (
  values: readonly string[],
  all: string,
  label: (value: string) => string = (value) => value,
) => [{ value: "all", label: all }, ...values.map((value) => ({ value, label: label(value) }))];

export function OrderFilters({
  filters,
  formKey,
}: {
  filters: Partial<ServiceOrderFilters>;
  formKey: string;
}) {
  return (
    <Form
      key={formKey}
      method="get"
      className="grid gap-3 rounded-xl border border-slate-200 bg-white p-4 sm:grid-cols-2 lg:grid-cols-6"
    >
      <FilterSelect
        name="serviceType"
        label="Service type"
        value={filters.serviceType}
        options={[
          { value: "all", label: "All services" },
          { value: "shipping", label: "Shipping" },
          { value: "export", label: "Export" },
        ]}
      />
      <FilterSelect
        name="pickupState"
        label="Pickup location"
        value={filters.pickupState}
        options={selectOptions(PICKUP_STATE_OPTIONS, "All locations")}
      />
      <FilterSelect
        name="destination"
        label="Destination"
        value={filters.destination}
        options={[
          { value: "all", label: "All destinations" },
          { value: "domestic", label: "Domestic" },
          { value: "international", label: "International" },
        ]}
      />
      <FilterSelect
        name="vehicleType"
        label="Vehicle type"
        value={filters.vehicleType}
        options={selectOptions(VEHICLE_TYPE_OPTIONS, "All vehicles", vehicleTypeLabel)}
      />
      <div>
        <label htmlFor="filter-q" className={labelClass}>
          Keyword
        </label>
        <input
          id="filter-q"
          name="q"
          type="search"
          defaultValue={filters.q ?? ""}
          placeholder="City or vehicle"
          className={inputClass}
        />
      </div>
      <div className="flex items-end gap-2">
        <button type="submit" className={primaryButton}>
          Search
        </button>
        <Link to="/service-orders" className={secondaryButton}>
          Clear
        </Link>
      </div>
    </Form>
  );
}

function FilterSelect(props: {
  name: string;
  label: string;
  value: string | undefined;
  options: { value: string; label: string }[];
}) {
  return (
    <div>
      <label htmlFor={`filter-${props.name}`} className={labelClass}>
        {props.label}
      </label>
      <select
        id={`filter-${props.name}`}
        name={props.name}
        defaultValue={props.value ?? "all"}
        className={inputClass}
      >
        {props.options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}
