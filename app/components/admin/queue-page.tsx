import type { ReactNode } from "react";
import { Form } from "@remix-run/react";

/**
 * An admin queue page (failed jobs, contact messages, reported messages): a heading, a line
 * about it, and its open items as cards, oldest first, or a line saying there are none.
 */
export function AdminQueuePage<T extends { id: string | number }>({
  title,
  intro,
  empty,
  items,
  testId,
  children,
}: {
  title: string;
  intro?: ReactNode;
  /** What the page says when nothing is open. */
  empty: string;
  items: T[];
  /** The cards' data-testid, for the tests that count them. */
  testId?: string;
  /** One item's card body. */
  children: (item: T) => ReactNode;
}) {
  return (
    <div className="mx-auto max-w-4xl px-3 py-6 sm:px-6">
      <h1 className="text-2xl font-black">{title}</h1>
      {intro ? <p className="mt-1 text-sm text-slate-600">{intro}</p> : null}
      {items.length === 0 ? (
        <p className="mt-6 text-slate-600">{empty}</p>
      ) : (
        <ul className="mt-6 space-y-4">
          {items.map((item) => (
            <li
              key={item.id}
              data-testid={testId}
              className="rounded-lg border border-slate-200 bg-white p-4"
            >
              {children(item)}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export const adminQueueButton =
  "rounded-md border border-slate-300 px-3 py-1.5 text-sm font-semibold hover:bg-slate-50 focus-visible:focus-ring";

/** A card's one-button form: posts `name`=`value` (the item's id), with `intent` if given. */
export function AdminQueueAction({
  name,
  value,
  intent,
  label,
  className,
}: {
  name: string;
  value: string;
  intent?: string;
  label: string;
  className?: string;
}) {
  return (
    <Form method="post" className={className}>
      <input type="hidden" name={name} value={value} />
      <button
        type="submit"
        {...(intent ? { name: "intent", value: intent } : {})}
        className={adminQueueButton}
      >
        {label}
      </button>
    </Form>
  );
}
