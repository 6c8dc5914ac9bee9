import type { ReactNode } from "react";
import { Link } from "@remix-run/react";

/** The frame of the Terms of Service and the Privacy Policy: a title, a date, sections. */
export function LegalPage({
  title,
  updated,
  children,
}: {
  title: string;
  updated: string;
  children: ReactNode;
}) {
  return (
    <article className="mx-auto max-w-3xl px-3 py-6 text-slate-800 sm:px-6">
      <h1 className="text-2xl font-black text-slate-900">{title}</h1>
      <p className="mt-1 text-sm text-slate-600">Last updated {updated}</p>
      <div className="mt-4 space-y-6 [&_li]:mt-1 [&_p]:mt-2 [&_ul]:mt-2 [&_ul]:list-disc [&_ul]:pl-5">
        {children}
      </div>
      <p className="mt-8 border-t border-slate-200 pt-4 text-sm text-slate-600">
        Questions about this page?{" "}
        <Link to="/contact" className="text-brand-700 underline">
          Contact us
        </Link>
        : an admin answers by e-mail within one business day.
      </p>
    </article>
  );
}

export function LegalSection({
  id,
  title,
  children,
}: {
  id: string;
  title: string;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={id}>
      <h2 id={id} className="text-lg font-bold text-slate-900">
        {title}
      </h2>
      {children}
    </section>
  );
}
