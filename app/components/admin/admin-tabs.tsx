import type { ReactNode } from "react";
import { Link } from "@remix-run/react";

export const ADMIN_TABS = [
  { id: "users", label: "Users" },
  { id: "early-access", label: "Early Access" },
  { id: "kyc", label: "KYC Review" },
  { id: "affiliates", label: "Affiliates" },
  { id: "settings", label: "Settings" },
  { id: "audit", label: "Audit Log" },
] as const;

export type AdminTab = (typeof ADMIN_TABS)[number]["id"];

/** Admin screens of their own, listed after the tabs so they can be found without their URL. */
export const ADMIN_PAGES = [
  { to: "/admin/purchases", label: "Purchases" },
  { to: "/admin/fees", label: "Fees and terms" },
  { to: "/admin/exchange-rates", label: "Exchange rates" },
  { to: "/admin/message-reports", label: "Message reports" },
  { to: "/admin/contact", label: "Contact messages" },
  { to: "/admin/refunds", label: "Refunds that need a person" },
] as const;

export function AdminTabs({ current }: { current: AdminTab }) {
  return (
    // The sections wrap onto more lines rather than scroll out of sight on a narrow screen, so
    // every one of them is in view with or without scripts (record 3330).
    <nav aria-label="Admin sections" className="mt-8 border-b border-slate-200">
      <ul className="flex flex-wrap gap-x-1 gap-y-0">
        {ADMIN_TABS.map((tab) => (
          <li key={tab.id}>
            <Link
              to={`/admin?tab=${tab.id}`}
              aria-current={tab.id === current ? "page" : undefined}
              className={`inline-block rounded-t-md px-4 py-2 text-sm font-semibold ${
                tab.id === current
                  ? "border-b-2 border-brand-700 text-brand-700"
                  : "text-slate-600 hover:text-slate-900"
              }`}
            >
              {tab.label}
            </Link>
          </li>
        ))}
        {ADMIN_PAGES.map((page) => (
          <li key={page.to}>
            <Link
              to={page.to}
              className="inline-block rounded-t-md px-4 py-2 text-sm font-semibold text-slate-600 hover:text-slate-900"
            >
              {page.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export function StatCard({ label, value }: { label: string; value: number }) {
  return (
    <div className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
      <p className="text-sm font-medium text-slate-600">{label}</p>
      <p className="mt-1 text-3xl font-bold tabular-nums">{value.toLocaleString("en-US")}</p>
    </div>
  );
}

type Header = string | { srOnly: string };

/**
 * A table cell for a value of any length (a name, an e-mail): one line, cut short with an
 * ellipsis past `max`, the whole value in its title (docs/decisions/2809).
 */
export function TruncatedCell({
  value,
  label,
  className = "",
}: {
  value: string;
  /** The column's name, shown before the value when a narrow screen stacks the row. */
  label: string;
  className?: string;
}) {
  return (
    <td data-label={label} className={`px-4 py-2 ${className}`}>
      {/* A table cell ignores max-width; a block inside it does not. */}
      <div className="max-w-[16rem] truncate" title={value}>
        {value}
      </div>
    </td>
  );
}

/**
 * The admin's tables: a header row, the rows, and a message in place of rows when empty. Below
 * 640 px each row stacks as a card (cells name their column with data-label), so a row's actions
 * stay on screen; wider, the table scrolls inside its region (record 3330).
 */
export function AdminTable({
  label,
  headers,
  empty,
  className = "",
  children,
}: {
  /** Names the scroll region ("Users table"): a narrow screen scrolls the table, not the page. */
  label: string;
  headers: Header[];
  empty: string | null;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div
      role="region"
      aria-label={label}
      // focusable so a keyboard user can scroll a table wider than the screen; `relative` keeps the
      // rows' screen-reader-only text (absolutely placed) inside the region, not off the page
      tabIndex={0}
      className={`stack-table relative max-w-full overflow-x-auto rounded-xl border border-slate-200 bg-white focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-700 ${className}`}
    >
      <table className="min-w-full text-left text-sm">
        <thead className="bg-slate-50 text-slate-600">
          <tr>
            {headers.map((header) => (
              <th key={typeof header === "string" ? header : header.srOnly} className="px-4 py-2">
                {typeof header === "string" ? (
                  header
                ) : (
                  <span className="sr-only">{header.srOnly}</span>
                )}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {children}
          {empty ? (
            <tr>
              <td colSpan={headers.length} className="px-4 py-6 text-center text-slate-500">
                {empty}
              </td>
            </tr>
          ) : null}
        </tbody>
      </table>
    </div>
  );
}
