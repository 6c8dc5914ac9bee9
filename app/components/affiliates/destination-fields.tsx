import { FieldError, inputClass, labelClass } from "./ui";

type Field = {
  id: string;
  name: string;
  errorId: string;
  errors?: string[];
  initialValue?: unknown;
  value?: unknown;
};
type Fields = {
  serviceType: Field;
  delivery: Field;
  /** The buyer's own request asks for the street too; the admin's form does not. */
  deliveryStreet?: Field;
  exportPort: Field;
  destinationCountry: Field;
};
const initial = (field: Field) =>
  typeof field.initialValue === "string" ? field.initialValue : "";

/** Shipping (a US city) or export (a port and a country); both groups show without JS. */
export function DestinationFields({
  fields,
  cities,
  ports,
  countries,
  withCityList = true,
}: {
  withCityList?: boolean;
  fields: Fields;
  cities: string[];
  ports: string[];
  countries: readonly string[];
}) {
  const chosen = initial(fields.serviceType);
  return (
    <>
      <fieldset aria-describedby={fields.serviceType.errorId}>
        <legend className={labelClass}>Service</legend>
        <div className="mt-2 flex flex-wrap gap-4">
          {[
            { value: "shipping", label: "Shipping (domestic)" },
            { value: "export", label: "Export (international)" },
          ].map((option) => (
            <label key={option.value} className="inline-flex items-center gap-2 text-sm">
              <input
                type="radio"
                name={fields.serviceType.name}
                value={option.value}
                defaultChecked={chosen === option.value}
              />
              {option.label}
            </label>
          ))}
        </div>
        <FieldError id={fields.serviceType.errorId} errors={fields.serviceType.errors} />
      </fieldset>
      {withCityList ? <CityList cities={cities} /> : null}
      <div className="grid gap-4 sm:grid-cols-3">
        <div>
          <label htmlFor={fields.delivery.id} className={labelClass}>
            Delivery ZIP, or city, ST (shipping)
          </label>
          <input
            id={fields.delivery.id}
            name={fields.delivery.name}
            defaultValue={initial(fields.delivery)}
            list="us-cities"
            placeholder="77002 or Houston, TX"
            aria-describedby={fields.delivery.errorId}
            className={inputClass}
          />
          <FieldError id={fields.delivery.errorId} errors={fields.delivery.errors} />
        </div>
        {fields.deliveryStreet ? (
          <div>
            <label htmlFor={fields.deliveryStreet.id} className={labelClass}>
              Delivery street address (shipping, optional)
            </label>
            <input
              id={fields.deliveryStreet.id}
              name={fields.deliveryStreet.name}
              defaultValue={initial(fields.deliveryStreet)}
              autoComplete="street-address"
              placeholder="1200 Main St"
              aria-describedby={fields.deliveryStreet.errorId}
              className={inputClass}
            />
            <FieldError id={fields.deliveryStreet.errorId} errors={fields.deliveryStreet.errors} />
          </div>
        ) : null}
        <div>
          <label htmlFor={fields.exportPort.id} className={labelClass}>
            Export port (export)
          </label>
          <select
            id={fields.exportPort.id}
            name={fields.exportPort.name}
            defaultValue={initial(fields.exportPort)}
            aria-describedby={fields.exportPort.errorId}
            className={inputClass}
          >
            <option value="">Choose a port</option>
            {ports.map((port) => (
              <option key={port} value={port}>
                {port}
              </option>
            ))}
          </select>
          <FieldError id={fields.exportPort.errorId} errors={fields.exportPort.errors} />
        </div>
        <div>
          <label htmlFor={fields.destinationCountry.id} className={labelClass}>
            Destination country (export)
          </label>
          <select
            id={fields.destinationCountry.id}
            name={fields.destinationCountry.name}
            defaultValue={initial(fields.destinationCountry)}
            aria-describedby={fields.destinationCountry.errorId}
            className={inputClass}
          >
            <option value="">Choose a country</option>
            {countries.map((country) => (
              <option key={country} value={country}>
                {country}
              </option>
            ))}
          </select>
          <FieldError
            id={fields.destinationCountry.errorId}
            errors={fields.destinationCountry.errors}
          />
        </div>
      </div>
    </>
  );
}

/** The cities the delivery and pickup fields suggest (one per page: it is found by id). */
export function CityList({ cities }: { cities: string[] }) {
  return (
    <datalist id="us-cities">
      {cities.map((city) => (
        <option key={city} value={city} />
      ))}
    </datalist>
  );
}
