import { Form } from "@remix-run/react";
import type { UserMembershipView } from "~/services/memberships/memberships.server";
import { useViewerTimeZone } from "~/services/accounts/use-user";
import { renewalOpensAt, statusLabel } from "~/services/memberships/rules";
import { formatDay } from "~/utils/time";
import { FREE_LISTINGS } from "~/services/listings/rules";
import { termsSentence, type SubscriptionTerms } from "./plan-card";

/**
 * The user's plan: name, status, 'Trial ends on' or 'Renews on' (or that it ends instead), and
 * what can be done with it: subscribe after a trial, renew, cancel.
 */
export function CurrentPlan({
  membership,
  canRenew,
  keep,
  busy,
}: {
  membership: UserMembershipView;
  /** Whether Renew Now is offered yet: decided by the loader, at its one "now". */
  canRenew: boolean;
  /** While trialing: the price and first paid period of keeping the plan. */
  keep: { price: string; terms: SubscriptionTerms } | null;
  busy: boolean;
}) {
  const zone = useViewerTimeZone();
  const end = membership.currentPeriodEnd ? formatDay(membership.currentPeriodEnd, zone) : null;
  const freeUntil = membership.trialEndsAt ? formatDay(membership.trialEndsAt, zone) : null;
  // A member who has just paid is not asked to pay again: Renew Now comes near the period's end
  // (record 3321); until then the page says when it will.
  const renewFrom = membership.currentPeriodEnd
    ? renewalOpensAt(new Date(membership.currentPeriodEnd))
    : null;
  return (
    <section
      aria-labelledby="current-plan-heading"
      className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm"
    >
      <h2 id="current-plan-heading" className="text-sm font-semibold uppercase text-slate-500">
        Current Plan
      </h2>
      {membership.hasActiveMembership ? (
        <div className="mt-2 flex flex-wrap items-center justify-between gap-4">
          <div>
            <p className="text-2xl font-bold text-slate-900" data-testid="current-plan-name">
              {membership.planName}
            </p>
            <p className="mt-1 text-slate-700">
              Status:{" "}
              <span className="font-semibold" data-testid="current-plan-status">
                {statusLabel(membership.status!)}
              </span>
              {membership.cancelAtPeriodEnd ? (
                <span className="ml-2 rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900">
                  Cancelled
                </span>
              ) : null}
            </p>
            <p className="mt-1 text-slate-700" data-testid="current-plan-period">
              {membership.cancelAtPeriodEnd
                ? `Cancelled: ends on ${end} instead of renewing`
                : membership.status === "trialing"
                  ? `Trial ends on ${end}`
                  : freeUntil
                    ? `Free trial until ${freeUntil}, then paid until ${end}`
                    : `Paid until ${end}`}
            </p>
            {membership.status === "active" && !membership.cancelAtPeriodEnd ? (
              <p className="mt-1 max-w-md text-sm text-slate-600" data-testid="renewal-note">
                {canRenew
                  ? `Nothing is charged automatically: renew now to keep your plan after ${end}.`
                  : `Nothing is charged automatically. You can renew from ${formatDay(renewFrom!, zone)}.`}
              </p>
            ) : null}
            {membership.status === "trialing" ? (
              <p className="mt-1 max-w-md text-sm text-slate-600" data-testid="trial-end-note">
                {`When your trial ends on ${end}, you go back to the free tier (${FREE_LISTINGS} listings in all; listings you posted stay up). Nothing is charged, as no payment was taken, so there is nothing to cancel.`}
              </p>
            ) : null}
            {membership.status === "trialing" && keep ? (
              <p
                id="keep-plan-terms"
                className="mt-1 max-w-md text-sm text-slate-600"
                data-testid="keep-plan-terms"
              >
                {termsSentence(keep.price, keep.terms, zone)}
              </p>
            ) : null}
          </div>
          <div className="flex flex-wrap gap-2">
            {membership.status === "trialing" ? (
              <Form method="post">
                <input type="hidden" name="intent" value="subscribe" />
                <input type="hidden" name="planId" value={membership.planId!} />
                <button
                  type="submit"
                  disabled={busy}
                  aria-describedby={keep ? "keep-plan-terms" : undefined}
                  className="rounded-md bg-brand-700 px-4 py-2 font-semibold text-white hover:bg-brand-800 disabled:opacity-60"
                >
                  {`Keep ${membership.planName}: Subscribe Now`}
                </button>
              </Form>
            ) : canRenew ? (
              <Form method="post">
                <input type="hidden" name="intent" value="renew" />
                <button
                  type="submit"
                  disabled={busy}
                  className="rounded-md bg-brand-700 px-4 py-2 font-semibold text-white hover:bg-brand-800 disabled:opacity-60"
                >
                  Renew Now
                </button>
              </Form>
            ) : null}
            {membership.cancelAtPeriodEnd ? null : (
              <Form method="post">
                <input type="hidden" name="intent" value="cancel" />
                <button
                  type="submit"
                  disabled={busy}
                  className="rounded-md border border-slate-300 px-4 py-2 font-semibold text-slate-700 hover:bg-slate-100 disabled:opacity-60"
                >
                  Cancel Membership
                </button>
              </Form>
            )}
          </div>
        </div>
      ) : (
        <div className="mt-2">
          <p className="text-2xl font-bold text-slate-900" data-testid="current-plan-name">
            Free
          </p>
          <p className="mt-1 text-slate-700">
            Status:{" "}
            <span className="font-semibold" data-testid="current-plan-status">
              Active
            </span>
          </p>
        </div>
      )}
    </section>
  );
}
