import {
  getFormProps,
  getInputProps,
  getSelectProps,
  getTextareaProps,
  useForm,
  type FieldMetadata,
  type SubmissionResult,
} from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form } from "@remix-run/react";
import type { ReactNode } from "react";
import {
  BODY_TYPES,
  BODY_TYPE_LABELS,
  CONDITIONS,
  COUNTRIES,
  COUNTRY_NAMES,
  CURRENCIES,
  DRIVETRAINS,
  FUEL_TYPES,
  POPULAR_MAKES,
  TRANSMISSIONS,
  capitalise,
} from "~/utils/listing-fields";
import { listingSchema } from "~/utils/schemas/listings";

export type ListingFormDefaults = Partial<Record<string, string | number | null | undefined>>;

const inputClass =
  "mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm focus:border-brand-600 aria-[invalid=true]:border-red-500";

function Field({
  meta,
  label,
  hint,
  children,
}: {
  meta: FieldMetadata<unknown>;
  label: string;
  hint?: string;
  children: ReactNode;
}) {
  return (
    <div>
      <label htmlFor={meta.id} className="block text-sm font-semibold text-slate-700">
        {label}
      </label>
      {children}
      {hint && !meta.errors ? <p className="mt-1 text-xs text-slate-500">{hint}</p> : null}
      {meta.errors ? (
        <p id={meta.errorId} className="mt-1 text-sm text-red-700">
          {meta.errors.join(". ")}
        </p>
      ) : null}
    </div>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <fieldset className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
      <legend className="px-1 text-lg font-bold text-slate-900">{title}</legend>
      <div className="mt-2 grid gap-4 sm:grid-cols-2">{children}</div>
    </fieldset>
  );
}

function Options({
  values,
  label,
  placeholder,
}: {
  values: readonly string[];
  label?: (value: string) => string;
  placeholder?: string;
}) {
  return (
    <>
      {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
      {values.map((value) => (
        <option key={value} value={value}>
          {label ? label(value) : capitalise(value)}
        </option>
      ))}
    </>
  );
}

/** The Post Vehicle form and the owner's edit form: the same fields, sections and rules. */
export function ListingForm({
  id,
  lastResult,
  defaultValue,
  submitLabel,
  pendingLabel,
  disabled,
  pending,
  maxYear,
  children,
}: {
  id: string;
  lastResult: SubmissionResult<string[]> | undefined;
  defaultValue?: ListingFormDefaults;
  submitLabel: string;
  pendingLabel: string;
  disabled: boolean;
  pending: boolean;
  maxYear: number;
  children?: ReactNode;
}) {
  const [form, fields] = useForm({
    id,
    lastResult,
    defaultValue: defaultValue as Record<string, string>,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: listingSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });

  return (
    <Form method="post" {...getFormProps(form)} className="space-y-6">
      {children}
      {form.errors ? (
        <div
          id={form.errorId}
          role="alert"
          className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm font-medium text-red-800"
        >
          {form.errors.join(" ")}
        </div>
      ) : null}

      <Section title="Basic Information">
        <div className="sm:col-span-2">
          <Field meta={fields.title} label="Title *">
            <input
              {...getInputProps(fields.title, { type: "text" })}
              placeholder="e.g. 2019 Toyota Camry XLE, one owner"
              className={inputClass}
            />
          </Field>
        </div>
        <Field meta={fields.price} label="Price *">
          <input
            {...getInputProps(fields.price, { type: "text" })}
            inputMode="decimal"
            placeholder="18500.00"
            className={inputClass}
          />
        </Field>
        <Field meta={fields.currency} label="Currency">
          <select {...getSelectProps(fields.currency)} className={inputClass}>
            <Options values={CURRENCIES} label={(v) => v} />
          </select>
        </Field>
        <div className="sm:col-span-2">
          <Field meta={fields.description} label="Description">
            <textarea
              {...getTextareaProps(fields.description)}
              rows={5}
              placeholder="Condition, history, service records, anything a buyer should know"
              className={inputClass}
            />
          </Field>
        </div>
      </Section>

      <Section title="Vehicle Details">
        <Field meta={fields.make} label="Make *">
          <input
            {...getInputProps(fields.make, { type: "text" })}
            list="listing-makes"
            autoComplete="off"
            className={inputClass}
          />
          <datalist id="listing-makes">
            {POPULAR_MAKES.map((make) => (
              <option key={make} value={make} />
            ))}
          </datalist>
        </Field>
        <Field meta={fields.model} label="Model *">
          <input {...getInputProps(fields.model, { type: "text" })} className={inputClass} />
        </Field>
        <Field meta={fields.year} label="Year *" hint={`1900 to ${maxYear}`}>
          <input
            {...getInputProps(fields.year, { type: "text" })}
            inputMode="numeric"
            placeholder={String(maxYear - 1)}
            className={inputClass}
          />
        </Field>
        <Field meta={fields.mileage} label="Mileage (miles)">
          <input
            {...getInputProps(fields.mileage, { type: "text" })}
            inputMode="numeric"
            placeholder="45000"
            className={inputClass}
          />
        </Field>
        <Field meta={fields.condition} label="Condition *">
          <select {...getSelectProps(fields.condition)} className={inputClass}>
            <Options values={CONDITIONS} placeholder="Select condition" />
          </select>
        </Field>
        <Field meta={fields.bodyType} label="Body type">
          <select {...getSelectProps(fields.bodyType)} className={inputClass}>
            <Options
              values={BODY_TYPES}
              label={(v) => BODY_TYPE_LABELS[v as keyof typeof BODY_TYPE_LABELS]}
              placeholder="Select body type"
            />
          </select>
        </Field>
        <Field meta={fields.fuelType} label="Fuel type">
          <select {...getSelectProps(fields.fuelType)} className={inputClass}>
            <Options values={FUEL_TYPES} placeholder="Select fuel type" />
          </select>
        </Field>
        <Field meta={fields.transmission} label="Transmission">
          <select {...getSelectProps(fields.transmission)} className={inputClass}>
            <Options values={TRANSMISSIONS} placeholder="Select transmission" />
          </select>
        </Field>
        <Field meta={fields.drivetrain} label="Drivetrain">
          <select {...getSelectProps(fields.drivetrain)} className={inputClass}>
            <Options values={DRIVETRAINS} label={(v) => v} placeholder="Select drivetrain" />
          </select>
        </Field>
        <Field meta={fields.exteriorColor} label="Exterior color">
          <input
            {...getInputProps(fields.exteriorColor, { type: "text" })}
            className={inputClass}
          />
        </Field>
        <Field meta={fields.interiorColor} label="Interior color">
          <input
            {...getInputProps(fields.interiorColor, { type: "text" })}
            className={inputClass}
          />
        </Field>
      </Section>

      <Section title="Location">
        <Field meta={fields.country} label="Country">
          <select {...getSelectProps(fields.country)} className={inputClass}>
            <Options
              values={COUNTRIES}
              label={(v) => COUNTRY_NAMES[v as keyof typeof COUNTRY_NAMES]}
            />
          </select>
        </Field>
        <Field meta={fields.state} label="State/Province">
          <input {...getInputProps(fields.state, { type: "text" })} className={inputClass} />
        </Field>
        <Field meta={fields.city} label="City *">
          <input {...getInputProps(fields.city, { type: "text" })} className={inputClass} />
        </Field>
        <Field meta={fields.zipCode} label="ZIP/Postal code">
          <input {...getInputProps(fields.zipCode, { type: "text" })} className={inputClass} />
        </Field>
      </Section>

      <div className="flex flex-wrap items-center gap-3">
        <button
          type="submit"
          disabled={disabled || pending}
          className="rounded-lg bg-brand-700 px-6 py-3 font-semibold text-white hover:bg-brand-800 disabled:cursor-not-allowed disabled:opacity-50"
        >
          {pending ? pendingLabel : submitLabel}
        </button>
        <p className="text-sm text-slate-500">Fields marked * are required.</p>
      </div>
    </Form>
  );
}
