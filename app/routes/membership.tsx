import { parseWithZod } from "@conform-to/zod/v4";
import {
  data,
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { CurrentPlan } from "~/components/membership/current-plan";
import { PlanCard } from "~/components/membership/plan-card";
import {
  beginRenewal,
  beginSubscription,
  PeriodPaidError,
} from "~/services/memberships/billing.server";
import {
  cancelMembership,
  listActiveCampaigns,
  listPlans,
  startTrial,
  userMembership,
} from "~/services/memberships/memberships.server";
import {
  cancelledToast,
  alreadyPaidToast,
  errorToast,
  failureToast,
  RENEW_FAILED_TOAST,
  SUBSCRIBE_FAILED_TOAST,
  TRIAL_FAILED_TOAST,
  TRIAL_STARTED_TOAST,
  type MembershipToast,
} from "~/services/memberships/messages";
import { isUserError } from "~/utils/user-error";
import { consumeRateLimit } from "~/platform/rate-limit.server";
import { requireUser } from "~/services/accounts/session.server";
import { redirectWithToast } from "~/http/toast.server";
import { FREE_LISTINGS } from "~/services/listings/rules";
import { firstPaidPeriod, planBenefits, renewalOpensAt } from "~/services/memberships/rules";
import { formatDay } from "~/utils/time";
import { LocalTime } from "~/components/local-time";
import { membershipIntentSchema } from "~/services/memberships/schemas";
import { guardAction, guardLoader } from "~/http/route-guards.server";
import { readForm } from "~/http/form-body.server";

// The no-JS subscribe post is answered with a redirect to the provider's approval page.
export const handle = {
  csp: { formAction: ["https://www.paypal.com", "https://www.sandbox.paypal.com"] },
};

export const meta: MetaFunction = () => [{ title: "Membership · BidYard" }];

export const loader = (args: LoaderFunctionArgs) => guardLoader(args, load);

async function load({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const [plans, campaigns, membership] = await Promise.all([
    listPlans(),
    listActiveCampaigns(),
    userMembership(user.id),
  ]);
  const trialCampaign = campaigns.find((c) => c.type === "membership_trial" && c.trialDays);
  // The trial button needs a running trial campaign and a user who never had a trial; a paying
  // member is not offered one either (docs/decisions/0603).
  const trialOffer =
    trialCampaign && !membership.hasUsedTrial && membership.status !== "active"
      ? { campaignId: trialCampaign.id, trialDays: trialCampaign.trialDays! }
      : null;
  // An offer is shown only to someone who can take it: a member, or anyone who had a trial, is
  // not told to "Try Any Plan Free" (record 3321).
  const offers = campaigns.filter((c) => c.type !== "membership_trial" || trialOffer !== null);
  // What each Subscribe Now would buy, said on the page before paying (docs/decisions/2851).
  const now = new Date();
  const trialEnd = membership.trialEndsAt ? new Date(membership.trialEndsAt) : null;
  const terms = Object.fromEntries(
    plans.map((plan) => {
      const { start, end } = firstPaidPeriod(plan.billingInterval, now, trialEnd);
      return [
        plan.id,
        { start: start.toISOString(), end: end.toISOString(), keepsTrial: start > now },
      ];
    }),
  );
  // Renew Now comes near the period's end (record 3321), judged here rather than in the render.
  const canRenew =
    membership.currentPeriodEnd !== null &&
    renewalOpensAt(new Date(membership.currentPeriodEnd)) <= now;
  return data(
    { plans, campaigns: offers, membership, trialOffer, terms, canRenew },
    { headers: { "Cache-Control": "no-store" } },
  );
}

/** A refusal or a failed payment as the step's failure toast; anything else is a bug, rethrown. */
function failure(error: unknown, toast: MembershipToast) {
  if (!isUserError(error)) throw error;
  return redirectWithToast("/membership", failureToast(toast, error));
}

export const action = (args: ActionFunctionArgs) => guardAction(args, act);

async function act({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const submission = parseWithZod(await readForm(request), { schema: membershipIntentSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const value = submission.value;

  if (value.intent === "start-trial") {
    try {
      await startTrial(user.id, value);
      return redirectWithToast("/membership", TRIAL_STARTED_TOAST);
    } catch (error) {
      return failure(error, TRIAL_FAILED_TOAST);
    }
  }

  if (value.intent === "cancel") {
    try {
      const membership = await cancelMembership(user.id);
      return redirectWithToast(
        "/membership",
        cancelledToast(formatDay(membership.currentPeriodEnd, user.timeZone)),
      );
    } catch (error) {
      if (!isUserError(error)) throw error;
      return redirectWithToast("/membership", errorToast(error.message));
    }
  }

  await consumeRateLimit(request, "payment", user.id);
  if (value.intent === "renew") {
    try {
      const { approvalUrl } = await beginRenewal(user.id);
      return redirect(approvalUrl);
    } catch (error) {
      return failure(error, RENEW_FAILED_TOAST);
    }
  }
  try {
    const { approvalUrl } = await beginSubscription(user.id, value);
    return redirect(approvalUrl);
  } catch (error) {
    // one payment per period (record 3501): said as it is, not as a failure to try again
    if (error instanceof PeriodPaidError) {
      return redirectWithToast("/membership", alreadyPaidToast(error.message));
    }
    return failure(error, SUBSCRIBE_FAILED_TOAST);
  }
}

const WHY_UPGRADE = [
  [
    "Sell without limits",
    `Post more vehicles, or as many as you like, instead of ${FREE_LISTINGS} in all.`,
  ],
  ["Stand out", "Featured listings appear first and carry a Featured badge."],
  ["Buy smarter", "Advanced buyer tools help you find and compare lots faster."],
  ["Know your buyers", "Seller analytics show how your listings perform."],
  ["Get help first", "Priority support answers members before anyone else."],
] as const;

export default function MembershipPage() {
  const { plans, campaigns, membership, trialOffer, terms, canRenew } =
    useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const freePlan = plans.find((plan) => plan.isFree);
  const paidPlans = plans.filter((plan) => !plan.isFree);
  // The benefits shown are the member's own plan's; a non-member's are the free tier's.
  const ownPlan = membership.hasActiveMembership
    ? plans.find((plan) => plan.id === membership.planId)
    : freePlan;
  const benefits = ownPlan
    ? planBenefits(ownPlan)
    : planBenefits({
        price: "0.00",
        vehicleLimit: FREE_LISTINGS,
        featuredListings: 0,
        prioritySupport: false,
        advancedBuyerTools: false,
        sellerAnalytics: false,
      });
  const benefitsTitle =
    membership.hasActiveMembership && membership.planName
      ? `Your ${membership.planName} Benefits`
      : "Free Tier Benefits";
  return (
    <div className="mx-auto max-w-6xl px-4 py-8 sm:px-6">
      <h1 className="text-center text-3xl font-black text-slate-900 sm:text-4xl">
        Choose Your Membership Plan
      </h1>
      <p className="mt-2 text-center text-slate-600">
        Post more vehicles, stand out to buyers and get help first.
      </p>
      {lastResult ? (
        <p role="alert" className="mt-4 rounded-md bg-red-50 px-4 py-3 text-red-900">
          Error: That request could not be understood. Please choose a plan and try again.
        </p>
      ) : null}

      <div className="mt-8 grid gap-6 lg:grid-cols-2">
        <CurrentPlan
          membership={membership}
          canRenew={canRenew}
          keep={
            membership.status === "trialing" && ownPlan && terms[ownPlan.id]
              ? { price: ownPlan.price, terms: terms[ownPlan.id] }
              : null
          }
          busy={busy}
        />
        <section
          aria-labelledby="benefits-heading"
          className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm"
        >
          <h2 id="benefits-heading" className="text-lg font-bold text-slate-900">
            {benefitsTitle}
          </h2>
          <ul className="mt-3 space-y-2 text-sm text-slate-700">
            {benefits
              .filter((line) => line.included)
              .map((line) => (
                <li key={line.text}>✓ {line.text}</li>
              ))}
          </ul>
        </section>
      </div>

      {campaigns.length > 0 ? (
        <section aria-labelledby="offers-heading" className="mt-10">
          <h2 id="offers-heading" className="text-2xl font-bold text-slate-900">
            Special Offers
          </h2>
          <div className="mt-4 grid gap-4 md:grid-cols-2">
            {campaigns.map((campaign) => (
              <article
                key={campaign.id}
                data-testid="campaign-card"
                className="rounded-xl border border-accent-500 bg-amber-50 p-5"
              >
                <div className="flex flex-wrap items-start justify-between gap-2">
                  <h3 className="text-lg font-bold text-slate-900">{campaign.name}</h3>
                  <span className="rounded-full bg-accent-500 px-2 py-0.5 text-xs font-bold uppercase text-slate-900">
                    Limited Time
                  </span>
                </div>
                <p className="mt-2 text-sm text-slate-700">{campaign.description}</p>
                {campaign.trialDays ? (
                  <p className="mt-2 font-semibold text-slate-900">
                    {campaign.trialDays}-day free trial
                  </p>
                ) : null}
                <p className="mt-1 text-sm text-slate-600">
                  Valid until <LocalTime at={campaign.endDate} style="day" />
                </p>
              </article>
            ))}
          </div>
        </section>
      ) : null}

      <section aria-labelledby="plans-heading" className="mt-10">
        <h2 id="plans-heading" className="text-2xl font-bold text-slate-900">
          Plans
        </h2>
        <div className="mt-6 grid grid-cols-1 gap-6 md:grid-cols-3">
          {paidPlans.map((plan) => (
            <PlanCard
              key={plan.id}
              plan={plan}
              isCurrent={membership.planId === plan.id}
              trialOffer={trialOffer}
              terms={terms[plan.id]}
              busy={busy}
              paidPeriod={
                membership.status === "active" && membership.planName && membership.currentPeriodEnd
                  ? { planName: membership.planName, end: membership.currentPeriodEnd }
                  : null
              }
            />
          ))}
        </div>
      </section>

      {membership.hasActiveMembership ? null : (
        <section
          aria-labelledby="why-upgrade-heading"
          className="mt-12 rounded-xl bg-brand-800 p-6 text-white sm:p-8"
        >
          <h2 id="why-upgrade-heading" className="text-2xl font-bold">
            Why Upgrade
          </h2>
          <ul className="mt-4 grid gap-4 sm:grid-cols-2">
            {WHY_UPGRADE.map(([title, text]) => (
              <li key={title}>
                <p className="font-semibold">{title}</p>
                <p className="text-sm text-brand-100">{text}</p>
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
