import {
  data,
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { useActionData, useLoaderData, useNavigation, useRevalidator } from "@remix-run/react";
import { useState } from "react";
import { NoticeToast, type Notice } from "~/components/deposit/notice";
import { DepositBalance, DepositHistory, TrustBadges } from "~/components/deposit/summary";
import {
  depositPageData,
  refundDeposit,
  reviewRefund,
  startDeposit,
  type RefundReview,
} from "~/services/deposits/deposits.server";
import { consumeRateLimit } from "~/platform/rate-limit.server";
import { requireUser } from "~/services/accounts/session.server";
import { redirectWithToast } from "~/http/toast.server";
import { replyFor } from "~/http/respond.server";
import { isUserError } from "~/utils/user-error";
import { formatUsd } from "~/utils/money";
import { env } from "~/platform/env.server";
import { chosenDepositAmount, readDepositForm } from "~/services/deposits/forms.server";
import { DEPOSIT_SUCCESS } from "~/services/deposits/rules";
import { identityStatusOf } from "~/services/kyc/kyc.server";
import { biddingEligibility } from "~/services/auctions/eligibility";
import { toCents } from "~/utils/money";
import { useHydrated } from "~/utils/use-hydrated";
import { AmountSection } from "./amount-section";
import { PaymentSection } from "./payment-section";
import { RefundSection } from "./refund-section";
import { RefundConfirmationDialog, RefundConfirmationPage } from "./refund-confirmation";
import { guardAction, guardLoader } from "~/http/route-guards.server";
import { readForm } from "~/http/form-body.server";

const PAYPAL = ["https://www.paypal.com", "https://*.paypal.com", "https://*.paypalobjects.com"];
export const handle = {
  csp: {
    scriptSrc: PAYPAL,
    connectSrc: PAYPAL,
    frameSrc: PAYPAL,
    imgSrc: PAYPAL,
    // The no-JS flow posts here and is redirected to PayPal's approval page.
    formAction: ["https://www.paypal.com", "https://www.sandbox.paypal.com"],
  },
};

export const meta: MetaFunction = () => [{ title: "Deposit · BidYard" }];

export const loader = (args: LoaderFunctionArgs) => guardLoader(args, load);

async function load({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const url = new URL(request.url);
  const [page, identity] = await Promise.all([depositPageData(user.id), identityStatusOf(user)]);
  return data(
    {
      ...page,
      // the same answer the lot page and the dashboard give (docs/decisions/2704)
      eligibility: biddingEligibility(identity, toCents(page.balance)),
      chosenAmount: chosenDepositAmount(url.searchParams.get("amount")),
      paypalClientId: page.testMode ? null : (env().PAYPAL_CLIENT_ID ?? null),
    },
    { headers: { "Cache-Control": "no-store" } },
  );
}

export const action = (args: ActionFunctionArgs) => guardAction(args, act);

async function act({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const formData = await readForm(request);
  const intent = String(formData.get("intent") ?? "");
  const submission = readDepositForm(formData);
  if (submission.status !== "success") {
    return data({ intent, result: submission.reply() }, { status: 400 });
  }
  const value = submission.value;
  if (value.intent === "choose") return redirect(`/deposit?amount=${value.amount}#payment`);

  if (value.intent === "refund-review") {
    // The confirmation step: what would go back and where, nothing moved (docs/decisions/2808).
    try {
      const review = await reviewRefund(user.id, value.refundAmount);
      return data({ intent, result: submission.reply(), review });
    } catch (error) {
      if (!isUserError(error)) throw error;
      return data({ intent, result: replyFor(submission, error) }, { status: error.status });
    }
  }

  await consumeRateLimit(request, "payment", user.id);
  if (value.intent === "pay") {
    try {
      const { approvalUrl } = await startDeposit(user.id, value.amount);
      return redirect(approvalUrl);
    } catch (error) {
      if (!isUserError(error)) throw error;
      return redirectWithToast(`/deposit?amount=${value.amount}`, {
        title: "Error",
        description: error.message,
        type: "error",
      });
    }
  }

  try {
    return redirectWithToast(
      "/deposit",
      refundNotice(await refundDeposit(user.id, value.refundAmount)),
    );
  } catch (error) {
    if (!isUserError(error)) throw error;
    return data({ intent, result: replyFor(submission, error) }, { status: error.status });
  }
}

/** What a refund's outcome tells the user: all sent, some still pending, or some refused. */
function refundNotice(outcome: Awaited<ReturnType<typeof refundDeposit>>) {
  if (outcome.pending !== "0.00") {
    return {
      title: "Refund Processing",
      description: `PayPal has not confirmed ${formatUsd(outcome.pending)} yet; we will keep trying. It is not in your balance.`,
      type: "info" as const,
    };
  }
  if (outcome.failed !== "0.00") {
    return {
      title: "Refund Failed",
      description: `PayPal could not refund ${formatUsd(outcome.failed)}; it is back in your balance. Please try again later.`,
      type: "error" as const,
    };
  }
  return {
    title: "Refund Issued",
    description: `${formatUsd(outcome.refunded)} is on its way back to your PayPal account.`,
    type: "success" as const,
  };
}

export default function DepositPage() {
  const page = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const revalidator = useRevalidator();
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const [clientNotice, setClientNotice] = useState<Notice | null>(null);

  // The layout's toaster shows flash toasts (the return from the gateway brings the success one);
  // this page adds what only the PayPal buttons know.
  const notice: Notice | null = clientNotice;
  const busy = navigation.state !== "idle";
  const review =
    actionData && "review" in actionData && actionData.review
      ? (actionData.review as RefundReview)
      : null;

  // Without JavaScript the confirmation is a page of its own; with it, a dialog over this one.
  if (review && !hydrated) return <RefundConfirmationPage review={review} />;

  return (
    <div className="mx-auto max-w-5xl px-3 py-8 sm:px-6">
      <h1 className="text-2xl font-black tracking-tight sm:text-3xl">Secure Your Bidding Power</h1>
      <p className="mt-1 text-slate-600">
        Your refundable deposit sets how much you can bid. Unused funds are fully refundable.
      </p>

      <DepositBalance
        balance={page.balance}
        available={page.available}
        eligibility={page.eligibility}
        testMode={page.testMode}
      />

      <AmountSection
        chosenAmount={page.chosenAmount}
        lastResult={actionData?.intent === "choose" ? actionData.result : undefined}
      />

      {page.chosenAmount ? (
        <PaymentSection
          amount={page.chosenAmount}
          testMode={page.testMode}
          paypalClientId={page.paypalClientId}
          hydrated={hydrated}
          busy={busy}
          onNotice={setClientNotice}
          onDeposited={() => {
            setClientNotice(DEPOSIT_SUCCESS);
            revalidator.revalidate();
          }}
        />
      ) : null}

      <TrustBadges />

      <div className="mt-8 grid gap-6 lg:grid-cols-2">
        <DepositHistory history={page.history} />
        <RefundSection
          refund={page.refund}
          lastResult={
            actionData?.intent === "refund" || actionData?.intent === "refund-review"
              ? actionData.result
              : undefined
          }
          busy={busy}
        />
        {review ? <RefundConfirmationDialog review={review} busy={busy} /> : null}
      </div>

      <NoticeToast notice={notice} />
    </div>
  );
}
