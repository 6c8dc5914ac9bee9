// The board's tab bar (Available / My Orders), its empty state and its loading skeletons.
import { Link } from "@remix-run/react";

export function OrderTabs({
  tab,
  approved,
  myCount,
  href: tabHref,
}: {
  tab: "available" | "mine";
  approved: boolean;
  myCount: number;
  href: (name: "available" | "mine") => string;
}) {
  const tabClass = (name: "available" | "mine") =>
    `-mb-px border-b-2 px-4 py-2 text-sm font-semibold ${
      tab === name ? "border-brand-700 text-brand-800" : "border-transparent text-slate-600"
    }`;
  return (
    <nav aria-label="Order lists" className="mt-6 flex gap-2 border-b border-slate-200">
      <Link
        to={tabHref("available")}
        aria-current={tab === "available" ? "page" : undefined}
        className={tabClass("available")}
      >
        Available Orders
      </Link>
      {approved ? (
        <Link
          to={tabHref("mine")}
          aria-current={tab === "mine" ? "page" : undefined}
          className={tabClass("mine")}
        >
          My Orders ({myCount})
        </Link>
      ) : (
        <span
          aria-disabled="true"
          title="Affiliate Approval Required"
          className="-mb-px cursor-not-allowed border-b-2 border-transparent px-4 py-2 text-sm font-semibold text-slate-400"
        >
          My Orders ({myCount})
        </span>
      )}
    </nav>
  );
}

export function Empty({ title, body }: { title: string; body: string }) {
  return (
    <div className="mt-4 rounded-xl border border-dashed border-slate-300 bg-white p-10 text-center">
      <p className="text-lg font-semibold">{title}</p>
      <p className="mt-1 text-sm text-slate-600">{body}</p>
    </div>
  );
}

export function Skeletons() {
  return (
    <div className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-busy="true">
      {[0, 1, 2].map((i) => (
        <div key={i} className="h-64 animate-pulse rounded-xl bg-slate-200" />
      ))}
    </div>
  );
}
