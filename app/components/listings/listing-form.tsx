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
import { useCallback, type ReactNode } from "react";
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
} from "~/services/listings/fields";
import { MAX_PHOTO_MB, MAX_PHOTOS, MIN_YEAR } from "~/services/listings/rules";
import { listingSchema } from "~/services/listings/schemas";
import { Field, inputClass, Options, Section } from "./form-parts";
import { useUploadWithProgress } from "./use-upload-with-progress";
import { useVinPrefill, type VinFillable } from "./use-vin-prefill";

export type ListingFormDefaults = Partial<Record<string, string | number | null | undefined>>;

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
  uploadWithProgress = false,
  existingPhotos = [],
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
  /** With JS, send the form to POST /api/vehicles with a progress bar when photos are chosen. */
  uploadWithProgress?: boolean;
  existingPhotos?: Array<{ id: string; thumbnailUrl: string }>;
  children?: ReactNode;
}) {
  const upload = useUploadWithProgress(uploadWithProgress);
  const [form, fields] = useForm({
    id,
    lastResult,
    defaultValue: defaultValue as Record<string, string>,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: listingSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onSubmit: (event, { formData }) => upload.send(event, formData),
  });
  const photosField = (fields as unknown as Record<string, FieldMetadata<unknown>>).photos;
  const { update } = form;
  const fillFromVin = useCallback(
    (name: VinFillable, value: string) => update({ name, value }),
    [update],
  );
  const vin = useVinPrefill(fillFromVin);

  return (
    <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="space-y-6">
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
        <div className="sm:col-span-2">
          {existingPhotos.length > 0 ? (
            <fieldset className="mb-3">
              <legend className="text-sm font-semibold text-slate-700">
                Current photos (tick to remove)
              </legend>
              <ul className="mt-1 grid grid-cols-3 gap-2 sm:grid-cols-5">
                {existingPhotos.map((photo, i) => (
                  <li key={photo.id}>
                    <label className="block text-xs text-slate-600">
                      <img
                        src={photo.thumbnailUrl}
                        alt=""
                        className="aspect-[4/3] w-full rounded object-cover"
                      />
                      <span className="mt-1 flex items-center gap-1">
                        <input type="checkbox" name="removePhotos" value={photo.id} />
                        Remove photo {i + 1}
                      </span>
                    </label>
                  </li>
                ))}
              </ul>
            </fieldset>
          ) : null}
          <Field
            meta={photosField}
            label={`Photos (up to ${MAX_PHOTOS}, JPG or PNG, ${MAX_PHOTO_MB} MB each)`}
            hint="The first photo is the one buyers see in the search results."
          >
            <input
              id={photosField.id}
              name="photos"
              type="file"
              multiple
              accept="image/jpeg,image/png"
              aria-invalid={photosField.errors ? true : undefined}
              aria-describedby={photosField.errors ? photosField.errorId : undefined}
              className={`${inputClass} file:mr-3 file:rounded file:border-0 file:bg-brand-50 file:px-3 file:py-1 file:text-brand-700`}
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
        <Field meta={fields.year} label="Year *" hint={`${MIN_YEAR} to ${maxYear}`}>
          <input
            {...getInputProps(fields.year, { type: "text" })}
            inputMode="numeric"
            placeholder={String(maxYear - 1)}
            className={inputClass}
          />
        </Field>
        <Field
          meta={fields.vin}
          label="VIN"
          hint="17 characters; we check it against the year, make and model, and fill in the body type and fuel if you leave them empty"
        >
          <input
            {...getInputProps(fields.vin, { type: "text" })}
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={24}
            onChange={(event) => vin.lookUp(event.currentTarget.value, event.currentTarget.form)}
            className={`${inputClass} font-mono`}
          />
          {vin.facts ? (
            <p role="status" className="mt-1 text-xs text-emerald-800" data-testid="vin-facts">
              {`From the VIN: ${[vin.facts.year, vin.facts.make, vin.facts.model].filter(Boolean).join(" ")}`}
              {vin.facts.bodyType ? ` · ${BODY_TYPE_LABELS[vin.facts.bodyType]}` : ""}
              {vin.facts.fuelType ? ` · ${vin.facts.fuelType}` : ""}
            </p>
          ) : null}
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

      {upload.errors.length > 0 ? (
        <div
          role="alert"
          className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm font-medium text-red-800"
        >
          {upload.errors.map((message) => (
            <p key={message}>{message}</p>
          ))}
        </div>
      ) : null}
      {upload.progress !== null ? (
        <div>
          <label htmlFor={`${id}-progress`} className="text-sm font-semibold text-slate-700">
            Uploading photos: {upload.progress}%
          </label>
          <progress
            id={`${id}-progress`}
            max={100}
            value={upload.progress}
            className="mt-1 block h-2 w-full overflow-hidden rounded"
          />
        </div>
      ) : null}
      <div className="flex flex-wrap items-center gap-3">
        <button
          type="submit"
          disabled={disabled || pending || upload.progress !== null}
          className="rounded-lg bg-brand-700 px-6 py-3 font-semibold text-white hover:bg-brand-800 disabled:cursor-not-allowed disabled:opacity-50"
        >
          {pending || upload.progress !== null ? pendingLabel : submitLabel}
        </button>
        <p className="text-sm text-slate-500">Fields marked * are required.</p>
      </div>
    </Form>
  );
}
