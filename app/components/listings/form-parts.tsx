// The building blocks of the listing form: a labelled field with its hint and errors, a
// titled section, and a select's options.
import type { FieldMetadata } from "@conform-to/react";
import type { ReactNode } from "react";
import { FieldMessage } from "~/components/field-message";
import { capitalise } from "~/services/listings/fields";

export const inputClass =
  "mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm focus:border-brand-600 aria-[invalid=true]:border-red-500";

export function Field({
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
      {/* One line kept for the hint or the error, so nothing below moves when one appears. */}
      <FieldMessage
        id={meta.errorId}
        errors={meta.errors ? [meta.errors.join(". ")] : undefined}
        hint={hint}
      />
    </div>
  );
}

export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <fieldset className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
      <legend className="px-1 text-lg font-bold text-slate-900">{title}</legend>
      <div className="mt-2 grid gap-4 sm:grid-cols-2">{children}</div>
    </fieldset>
  );
}

export function Options({
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
