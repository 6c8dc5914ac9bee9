import type { ReactNode } from "react";
import { FieldMessage } from "~/components/field-message";

/** A field's error, in a line kept free for it so nothing below moves (see FieldMessage). */
export function FieldError({ id, errors }: { id: string; errors?: string[] }) {
  return <FieldMessage id={id} errors={errors} />;
}

export function Badge({
  children,
  tone = "slate",
}: {
  children: ReactNode;
  tone?: "slate" | "green" | "yellow" | "blue" | "red" | "purple";
}) {
  const tones = {
    slate: "bg-slate-100 text-slate-700",
    green: "bg-green-100 text-green-800",
    yellow: "bg-yellow-100 text-yellow-800",
    blue: "bg-blue-100 text-blue-800",
    red: "bg-red-100 text-red-800",
    purple: "bg-purple-100 text-purple-800",
  };
  return (
    <span
      className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ${tones[tone]}`}
    >
      {children}
    </span>
  );
}

/** A flash message shown in the page itself, for the no-JS path until a global toaster lands. */
export function Notice({
  title,
  description,
  type = "info",
}: {
  title: string;
  description?: string;
  type?: "success" | "error" | "info";
}) {
  const tones = {
    success: "border-green-300 bg-green-50 text-green-900",
    error: "border-red-300 bg-red-50 text-red-900",
    info: "border-blue-300 bg-blue-50 text-blue-900",
  };
  return (
    <div role="status" className={`rounded-lg border px-4 py-3 text-sm ${tones[type]}`}>
      <p className="font-semibold">{title}</p>
      {description ? <p>{description}</p> : null}
    </div>
  );
}

export const inputClass =
  "mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm focus:border-brand-600";
export const labelClass = "block text-sm font-medium text-slate-800";
export const primaryButton =
  "inline-flex items-center justify-center rounded-md bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800 disabled:cursor-not-allowed disabled:opacity-60";
export const secondaryButton =
  "inline-flex items-center justify-center rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-semibold text-slate-800 hover:bg-slate-50 disabled:cursor-not-allowed disabled:opacity-60";
