import { Form } from "@remix-run/react";
import type { PlanView } from "~/services/memberships/memberships.server";
import { useViewerTimeZone } from "~/services/accounts/use-user";
import { planBenefits, planPriceLabel } from "~/services/memberships/rules";
import { formatDay } from "~/utils/time";
import { formatUsd } from "~/utils/money";
import { FREE_LISTINGS } from "~/services/listings/rules";

type TrialOffer = { campaignId: string; trialDays: number };

/** What Subscribe Now would buy, said before paying: the first paid period (record 2851). */
export type SubscriptionTerms = { start: string; end: string; keepsTrial: boolean };

/**
 * When money moves, plainly (record 3321): one charge today for the period named, and nothing
 * charged later by itself (a membership is renewed by hand).
 */
export function termsSentence(price: string, terms: SubscriptionTerms, zone: string) {
  const period = `${formatDay(terms.start, zone)} to ${formatDay(terms.end, zone)}`;
  return terms.keepsTrial
    ? `Charged today: ${formatUsd(price)}, once, for ${period}. Your free trial stays free until ${formatDay(terms.start, zone)}. Nothing is charged automatically later.`
    : `Charged today: ${formatUsd(price)}, once, for ${period}. Nothing is charged automatically later.`;
}

function Feature({ included = true, children }: { included?: boolean; children: string }) {
  return (
    <li className={`flex gap-2 ${included ? "text-slate-700" : "text-slate-500 line-through"}`}>
      <span aria-hidden="true" className={included ? "text-emerald-600" : "text-slate-400"}>
        {included ? "✓" : "✕"}
      </span>
      <span>
        {children}
        {included ? null : <span className="sr-only"> (not included)</span>}
      </span>
    </li>
  );
}

/**
 * What happens when a free trial ends, as the membership rules do it (record 3551): no payment
 * is taken to start one, the member goes back to the free tier, nothing renews or is charged.
 */
export function trialTermsSentence(days: number) {
  return `Free for ${days} days, no payment asked. When the trial ends you go back to the free tier (${FREE_LISTINGS} listings in all; listings you posted stay up). Nothing is charged and nothing renews: to keep the plan, subscribe before it ends.`;
}

/** One plan in the grid, with its Current Plan / trial / subscribe buttons. */
export function PlanCard({
  plan,
  isCurrent,
  trialOffer,
  terms,
  busy,
  paidPeriod = null,
}: {
  plan: PlanView;
  isCurrent: boolean;
  trialOffer: TrialOffer | null;
  terms: SubscriptionTerms;
  busy: boolean;
  /**
   * The viewer's paid period, when one runs: no second checkout is offered then, one payment per
   * period and a plan change waits for its end (docs/decisions/3501).
   */
  paidPeriod?: { planName: string; end: string } | null;
}) {
  const popular = plan.mostPopular;
  const zone = useViewerTimeZone();
  const headingId = `plan-${plan.id}-name`;
  const termsId = `plan-${plan.id}-terms`;
  return (
    <section
      aria-labelledby={headingId}
      data-testid="plan-card"
      className={`relative flex flex-col rounded-xl border bg-white p-6 shadow-sm ${
        popular ? "border-brand-600 ring-2 ring-brand-600" : "border-slate-200"
      }`}
    >
      {popular ? (
        <span className="absolute -top-3 left-1/2 -translate-x-1/2 rounded-full bg-accent-500 px-3 py-1 text-xs font-bold uppercase tracking-wide text-slate-900">
          Most Popular
        </span>
      ) : null}
      <h3 id={headingId} className="text-xl font-bold text-slate-900">
        {plan.name}
      </h3>
      <p className="mt-2 text-3xl font-black text-brand-800">
        {planPriceLabel(plan.price, plan.billingInterval)}
      </p>
      <p className="mt-2 text-sm text-slate-600">{plan.description}</p>
      <ul className="mt-4 flex-1 space-y-2 text-sm">
        {planBenefits(plan).map((line) => (
          <Feature key={line.text} included={line.included}>
            {line.text}
          </Feature>
        ))}
      </ul>
      <div className="mt-6 space-y-2">
        {isCurrent ? (
          <button
            type="button"
            disabled
            className="w-full cursor-not-allowed rounded-md bg-slate-200 px-4 py-2 font-semibold text-slate-600"
          >
            Current Plan
          </button>
        ) : paidPeriod ? (
          <p className="text-sm text-slate-700" data-testid="plan-change-note">
            You already pay for {paidPeriod.planName} until {formatDay(paidPeriod.end, zone)}. You
            can change to {plan.name} once that period ends.
          </p>
        ) : (
          <>
            {trialOffer ? (
              <Form method="post">
                <input type="hidden" name="intent" value="start-trial" />
                <input type="hidden" name="planId" value={plan.id} />
                <input type="hidden" name="campaignId" value={trialOffer.campaignId} />
                <button
                  type="submit"
                  disabled={busy}
                  aria-describedby={headingId}
                  className="w-full rounded-md border border-brand-700 px-4 py-2 font-semibold text-brand-700 hover:bg-brand-50 disabled:opacity-60"
                >
                  {`Start ${trialOffer.trialDays}-Day Free Trial`}
                </button>
                <p className="mt-2 text-xs text-slate-600" data-testid="trial-terms">
                  {trialTermsSentence(trialOffer.trialDays)}
                </p>
              </Form>
            ) : null}
            <Form method="post">
              <input type="hidden" name="intent" value="subscribe" />
              <input type="hidden" name="planId" value={plan.id} />
              <button
                type="submit"
                disabled={busy}
                aria-describedby={`${headingId} ${termsId}`}
                className="w-full rounded-md bg-brand-700 px-4 py-2 font-semibold text-white hover:bg-brand-800 disabled:opacity-60"
              >
                Subscribe Now
              </button>
              <p id={termsId} className="mt-2 text-xs text-slate-600" data-testid="plan-terms">
                {termsSentence(plan.price, terms, zone)}
              </p>
            </Form>
          </>
        )}
      </div>
    </section>
  );
}
