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
import { useState, type FormEvent, type ReactNode } from "react";
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
} from "~/modules/listings/fields";
import { MAX_PHOTOS } from "~/modules/listings/rules";
import { listingSchema } from "~/modules/listings/schemas";

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
  const [progress, setProgress] = useState<number | null>(null);
  const [uploadErrors, setUploadErrors] = useState<string[]>([]);

  function sendWithProgress(event: FormEvent<HTMLFormElement>, formData: FormData) {
    const photos = formData.getAll("photos").filter((f) => f instanceof File && f.size > 0);
    if (!uploadWithProgress || photos.length === 0) return;
    event.preventDefault();
    formData.set("source", "page");
    setUploadErrors([]);
    setProgress(0);
    const request = new XMLHttpRequest();
    request.open("POST", "/api/vehicles");
    request.setRequestHeader("Accept", "application/json");
    request.upload.onprogress = (e) => {
      if (e.lengthComputable) setProgress(Math.round((e.loaded / e.total) * 100));
    };
    request.onload = () => {
      let body: { id?: string; message?: string; fields?: Record<string, string> } = {};
      try {
        body = JSON.parse(request.responseText);
      } catch {
        body = {};
      }
      // A full load, so the root loader reads the flash toast the answer set.
      if (request.status === 201 && body.id) return window.location.assign(`/vehicle/${body.id}`);
      setProgress(null);
      if (request.status === 403) return window.location.assign("/membership");
      if (request.status === 401)
        return window.location.assign("/api/login?returnTo=/post-vehicle");
      const messages = [body.message, ...Object.values(body.fields ?? {})].filter(
        (m): m is string => Boolean(m),
      );
      setUploadErrors(
        messages.length
          ? [...new Set(messages)]
          : ["Error: Failed to post vehicle. Please try again."],
      );
    };
    request.onerror = () => {
      setProgress(null);
      setUploadErrors(["Error: Failed to post vehicle. Please try again."]);
    };
    request.send(formData);
  }

  const [form, fields] = useForm({
    id,
    lastResult,
    defaultValue: defaultValue as Record<string, string>,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: listingSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onSubmit: (event, { formData }) => sendWithProgress(event, formData),
  });
  const photosField = (fields as unknown as Record<string, FieldMetadata<unknown>>).photos;

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
                        alt={`Photo ${i + 1}`}
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
            label={`Photos (up to ${MAX_PHOTOS}, JPG or PNG, 10 MB each)`}
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

      {uploadErrors.length > 0 ? (
        <div
          role="alert"
          className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm font-medium text-red-800"
        >
          {uploadErrors.map((message) => (
            <p key={message}>{message}</p>
          ))}
        </div>
      ) : null}
      {progress !== null ? (
        <div>
          <label htmlFor={`${id}-progress`} className="text-sm font-semibold text-slate-700">
            Uploading photos: {progress}%
          </label>
          <progress
            id={`${id}-progress`}
            max={100}
            value={progress}
            className="mt-1 block h-2 w-full overflow-hidden rounded"
          />
        </div>
      ) : null}
      <div className="flex flex-wrap items-center gap-3">
        <button
          type="submit"
          disabled={disabled || pending || progress !== null}
          className="rounded-lg bg-brand-700 px-6 py-3 font-semibold text-white hover:bg-brand-800 disabled:cursor-not-allowed disabled:opacity-50"
        >
          {pending || progress !== null ? pendingLabel : submitLabel}
        </button>
        <p className="text-sm text-slate-500">Fields marked * are required.</p>
      </div>
    </Form>
  );
}
