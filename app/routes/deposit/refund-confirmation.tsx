// The refund's confirmation step (docs/decisions/2808): the amount and where it goes, then one
// button that refunds exactly that. Without JavaScript it is a page of its own; with it, a
// native modal dialog over the deposit page (no dialog library on this page).
import { Form, Link } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { LocalTime } from "~/components/local-time";
import type { RefundReview } from "~/services/deposits/deposits.server";
import { paymentLabel } from "~/services/deposits/rules";
import { formatUsd } from "~/utils/money";

function Details({ review }: { review: RefundReview }) {
  return (
    <>
      <p className="mt-3 text-slate-700">
        <strong>{formatUsd(review.amount)}</strong> goes back to {review.destination}. It leaves
        your deposit at once, and your bidding power falls by the same amount.
      </p>
      {review.parts.length > 1 ? (
        <ul className="mt-2 list-disc pl-5 text-sm text-slate-600">
          {review.parts.map((part) => (
            <li key={`${part.paidAt}-${part.amount}`}>
              {formatUsd(part.amount)} to your {paymentLabel(part.provider)} of{" "}
              <LocalTime at={part.paidAt} style="day" />
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-1 text-sm text-slate-600">
          Against your {paymentLabel(review.parts[0]?.provider ?? "paypal")} of{" "}
          {review.parts[0] ? <LocalTime at={review.parts[0].paidAt} style="day" /> : null}.
        </p>
      )}
    </>
  );
}

function ConfirmForm({ review, busy }: { review: RefundReview; busy: boolean }) {
  return (
    <Form method="post" action="/deposit" className="contents">
      <input type="hidden" name="intent" value="refund" />
      <input type="hidden" name="refundAmount" value={review.amount} />
      <button
        type="submit"
        disabled={busy}
        className="rounded-md bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800 disabled:opacity-60"
      >
        {busy ? "Refunding..." : `Refund ${formatUsd(review.amount)}`}
      </button>
    </Form>
  );
}

/** The no-JS step: a page with the refund's details, the refund button and a way back. */
export function RefundConfirmationPage({ review }: { review: RefundReview }) {
  return (
    <div className="mx-auto max-w-xl px-3 py-10 sm:px-6">
      <h1 className="text-2xl font-black">Confirm your refund</h1>
      <Details review={review} />
      <div className="mt-6 flex flex-wrap gap-3">
        <ConfirmForm review={review} busy={false} />
        <Link
          to="/deposit"
          className="rounded-md border border-slate-300 px-4 py-2 text-sm font-semibold hover:bg-slate-50"
        >
          Cancel
        </Link>
      </div>
    </div>
  );
}

/** The same step as a modal dialog (opened as soon as the review arrives). */
export function RefundConfirmationDialog({
  review,
  busy,
}: {
  review: RefundReview;
  busy: boolean;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [closed, setClosed] = useState<RefundReview | null>(null);
  useEffect(() => {
    if (closed !== review && !dialog.current?.open) dialog.current?.showModal();
  }, [review, closed]);
  return (
    <dialog
      ref={dialog}
      aria-labelledby="refund-confirm-heading"
      onClose={() => setClosed(review)}
      className="m-auto w-[min(32rem,calc(100vw-2rem))] rounded-xl p-6 shadow-xl backdrop:bg-slate-900/50"
    >
      <h2 id="refund-confirm-heading" className="text-xl font-black">
        Confirm your refund
      </h2>
      <Details review={review} />
      <div className="mt-6 flex flex-wrap justify-end gap-3">
        <button
          type="button"
          onClick={() => dialog.current?.close()}
          className="rounded-md border border-slate-300 px-4 py-2 text-sm font-semibold hover:bg-slate-50"
        >
          Cancel
        </button>
        <ConfirmForm review={review} busy={busy} />
      </div>
    </dialog>
  );
}
