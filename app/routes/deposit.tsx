import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import {
  data,
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import {
  Form,
  Link,
  useActionData,
  useLoaderData,
  useNavigate,
  useNavigation,
} from "@remix-run/react";
import { lazy, Suspense, useEffect, useState } from "react";
import { NoticeToast, type Notice } from "~/components/deposit/notice";
import { DepositBalance, DepositHistory, TrustBadges } from "~/components/deposit/summary";
import { PaymentGatewayError } from "~/platform/payments/index.server";
import {
  DepositError,
  depositPageData,
  refundDeposit,
  startDeposit,
} from "~/modules/deposits/deposits.server";
import { consumeRateLimit } from "~/platform/rate-limit.server";
import { requireUser } from "~/modules/accounts/session.server";
import { redirectWithToast } from "~/http/toast.server";
import { formatUsd } from "~/utils/cents";
import { env } from "~/platform/env.server";
import { DEPOSIT_PRESETS, depositAmount, depositPageSchema } from "~/modules/deposits/schemas";
import { whileDatabaseUp } from "~/platform/availability.server";

const PayPalDepositButtons = lazy(() =>
  import("~/components/deposit/paypal-buttons").then((m) => ({ default: m.PayPalDepositButtons })),
);

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

const SUCCESS: Notice = {
  title: "Deposit Successful",
  description: "Your deposit has been added to your account!",
  type: "success",
};

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const url = new URL(request.url);
  const page = await depositPageData(user.id);
  const chosen = depositAmount.safeParse(url.searchParams.get("amount") ?? "");
  return data(
    {
      ...page,
      chosenAmount: chosen.success ? chosen.data : null,
      success: url.searchParams.get("success") === "true",
      paypalClientId: page.testMode ? null : (env().PAYPAL_CLIENT_ID ?? null),
    },
    { headers: { "Cache-Control": "no-store" } },
  );
}

export async function action(args: ActionFunctionArgs) {
  return whileDatabaseUp(args.request, () => act(args));
}

async function act({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const formData = await request.formData();
  const intent = String(formData.get("intent") ?? "");
  const submission = parseWithZod(formData, { schema: depositPageSchema });
  if (submission.status !== "success") {
    return data({ intent, result: submission.reply() }, { status: 400 });
  }
  const value = submission.value;
  if (value.intent === "choose") return redirect(`/deposit?amount=${value.amount}#payment`);

  await consumeRateLimit(request, "payment", user.id);
  if (value.intent === "pay") {
    try {
      const { approvalUrl } = await startDeposit(user.id, value.amount);
      return redirect(approvalUrl);
    } catch (error) {
      if (!(error instanceof PaymentGatewayError)) throw error;
      console.error("deposit start:", error.message);
      return redirectWithToast(`/deposit?amount=${value.amount}`, {
        title: "Error",
        description: "Failed to start the payment. Please try again.",
        type: "error",
      });
    }
  }

  try {
    const outcome = await refundDeposit(user.id, value.refundAmount);
    if (outcome.pending !== "0.00") {
      return redirectWithToast("/deposit", {
        title: "Refund Processing",
        description: `PayPal has not confirmed ${formatUsd(outcome.pending)} yet; we will keep trying. It is not in your balance.`,
        type: "info",
      });
    }
    if (outcome.failed !== "0.00") {
      return redirectWithToast("/deposit", {
        title: "Refund Failed",
        description: `PayPal could not refund ${formatUsd(outcome.failed)}; it is back in your balance. Please try again later.`,
        type: "error",
      });
    }
    return redirectWithToast("/deposit", {
      title: "Refund Issued",
      description: `${formatUsd(outcome.refunded)} is on its way back to your PayPal account.`,
      type: "success",
    });
  } catch (error) {
    if (!(error instanceof DepositError)) throw error;
    return data(
      { intent, result: submission.reply({ fieldErrors: { refundAmount: [error.message] } }) },
      { status: 400 },
    );
  }
}

/** conform's props for a text field, without the `key` React refuses to see spread. */
function inputProps(field: Parameters<typeof getInputProps>[0]) {
  const { key: _key, ...props } = getInputProps(field, { type: "text" });
  return props;
}

function useHydrated() {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

export default function DepositPage() {
  const page = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigate = useNavigate();
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const [clientNotice, setClientNotice] = useState<Notice | null>(null);
  const [customText, setCustomText] = useState("");

  // The success toast stays; the parameter leaves the address bar (SPEC §2 Deposit).
  useEffect(() => {
    if (!page.success) return;
    setClientNotice(SUCCESS);
    navigate("/deposit", { replace: true, preventScrollReset: true });
  }, [page.success, navigate]);

  const [customForm, customFields] = useForm({
    id: "custom-amount",
    lastResult: actionData?.intent === "choose" ? actionData.result : undefined,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: depositPageSchema }),
  });
  const [refundForm, refundFields] = useForm({
    // A new balance gives a fresh form, so the suggested amount follows it.
    id: `refund-${page.refundable}`,
    lastResult: actionData?.intent === "refund" ? actionData.result : undefined,
    defaultValue: { refundAmount: page.refundable },
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: depositPageSchema }),
  });

  // The layout's toaster shows flash toasts; this page adds the ?success=true one and PayPal's.
  const notice: Notice | null = clientNotice ?? (page.success ? SUCCESS : null);
  const customNumber = Number(customText.replace(/[$,]/g, ""));
  const setAmountDisabled = hydrated && (customText.trim() === "" || !(customNumber >= 400));
  const busy = navigation.state !== "idle";

  return (
    <div className="mx-auto max-w-5xl px-3 py-8 sm:px-6">
      <h1 className="text-2xl font-black tracking-tight sm:text-3xl">Secure Your Bidding Power</h1>
      <p className="mt-1 text-slate-600">
        Your refundable deposit sets how much you can bid. Unused funds are fully refundable.
      </p>

      <DepositBalance
        balance={page.balance}
        biddingEnabled={page.biddingEnabled}
        testMode={page.testMode}
      />

      <section aria-labelledby="amount-heading" className="mt-8">
        <h2 id="amount-heading" className="text-lg font-bold">
          Choose Deposit Amount
        </h2>
        <div className="mt-3 grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
          <Form method="post" action="/deposit" className="contents">
            <input type="hidden" name="intent" value="choose" />
            {DEPOSIT_PRESETS.map((preset) => (
              <button
                key={preset.amount}
                type="submit"
                name="amount"
                value={preset.amount}
                aria-pressed={page.chosenAmount === preset.amount}
                className={`rounded-xl border-2 p-4 text-left ${
                  page.chosenAmount === preset.amount
                    ? "border-brand-700 bg-brand-50"
                    : "border-slate-200 bg-white hover:border-brand-600"
                }`}
              >
                <span className="block text-2xl font-bold">{preset.label}</span>
                <span className="text-sm text-slate-600">({preset.note})</span>
              </button>
            ))}
          </Form>
          <Form
            method="post"
            action="/deposit"
            {...getFormProps(customForm)}
            className="rounded-xl border-2 border-slate-200 bg-white p-4"
          >
            <input type="hidden" name="intent" value="choose" />
            <label htmlFor={customFields.amount.id} className="block font-bold">
              Custom
            </label>
            <div className="mt-2 flex gap-2">
              <input
                {...inputProps(customFields.amount)}
                inputMode="decimal"
                autoComplete="off"
                placeholder="400.00"
                onChange={(event) => setCustomText(event.currentTarget.value)}
                className="w-full min-w-0 rounded-md border border-slate-300 px-2 py-1.5"
              />
              <button
                type="submit"
                disabled={setAmountDisabled}
                className="whitespace-nowrap rounded-md bg-brand-700 px-3 py-1.5 text-sm font-semibold text-white disabled:opacity-50"
              >
                Set Amount
              </button>
            </div>
            {customFields.amount.errors ? (
              <p
                id={customFields.amount.errorId}
                role="alert"
                className="mt-2 text-sm text-red-700"
              >
                Invalid Amount - {customFields.amount.errors[0]}
              </p>
            ) : (
              <p className="mt-2 text-xs text-slate-500">At least $400.00, up to two decimals.</p>
            )}
          </Form>
        </div>
      </section>

      {page.chosenAmount ? (
        <section
          id="payment"
          aria-labelledby="payment-heading"
          className="mt-8 rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
        >
          <div className="flex flex-wrap items-center gap-2">
            <h2 id="payment-heading" className="text-lg font-bold">
              PayPal
            </h2>
            {page.testMode ? (
              <span className="rounded bg-accent-500 px-1.5 py-0.5 text-xs font-bold">
                TEST MODE
              </span>
            ) : null}
          </div>
          <p className="mt-2">
            Deposit Amount: <strong>{formatUsd(page.chosenAmount)}</strong>
          </p>
          <div className="mt-4 max-w-md">
            {hydrated && page.paypalClientId ? (
              <Suspense fallback={<p className="text-sm text-slate-500">Loading PayPal…</p>}>
                <PayPalDepositButtons
                  clientId={page.paypalClientId}
                  amount={page.chosenAmount}
                  onNotice={setClientNotice}
                  onDeposited={() =>
                    navigate("/deposit?success=true", { replace: true, preventScrollReset: true })
                  }
                />
              </Suspense>
            ) : (
              <Form method="post" action="/deposit">
                <input type="hidden" name="intent" value="pay" />
                <input type="hidden" name="amount" value={page.chosenAmount} />
                <button
                  type="submit"
                  disabled={busy}
                  className="w-full rounded-lg bg-[#ffc439] px-5 py-3 font-bold text-slate-900 hover:brightness-95 disabled:opacity-60"
                >
                  {page.testMode ? "Pay with Test Gateway" : "Pay with PayPal"}
                </button>
              </Form>
            )}
          </div>
          <Link to="/deposit" className="mt-3 inline-block text-sm text-brand-700 underline">
            Change amount
          </Link>
        </section>
      ) : null}

      <TrustBadges />

      <div className="mt-8 grid gap-6 lg:grid-cols-2">
        <DepositHistory history={page.history} />

        <section aria-labelledby="refund-heading">
          <h2 id="refund-heading" className="text-lg font-bold">
            Request a Refund
          </h2>
          <p className="mt-2 text-sm text-slate-600">
            Available to refund: <strong>{formatUsd(page.refundable)}</strong>. Money held by your
            bids and purchases stays until they settle; refunds go back to the PayPal account that
            paid.
          </p>
          {page.refundable === "0.00" && actionData?.intent !== "refund" ? (
            <p className="mt-3 rounded-xl border border-slate-200 bg-white p-4 text-sm text-slate-600">
              Nothing to refund right now.
            </p>
          ) : (
            <Form
              method="post"
              action="/deposit"
              {...getFormProps(refundForm)}
              className="mt-3 rounded-xl border border-slate-200 bg-white p-4"
            >
              <input type="hidden" name="intent" value="refund" />
              <label htmlFor={refundFields.refundAmount.id} className="block text-sm font-semibold">
                Refund amount (USD)
              </label>
              <div className="mt-2 flex gap-2">
                <input
                  {...inputProps(refundFields.refundAmount)}
                  inputMode="decimal"
                  autoComplete="off"
                  className="w-full min-w-0 rounded-md border border-slate-300 px-2 py-1.5"
                />
                <button
                  type="submit"
                  disabled={busy}
                  className="whitespace-nowrap rounded-md border border-slate-300 px-3 py-1.5 text-sm font-semibold hover:bg-slate-50 disabled:opacity-60"
                >
                  Refund
                </button>
              </div>
              {refundFields.refundAmount.errors ? (
                <p
                  id={refundFields.refundAmount.errorId}
                  role="alert"
                  className="mt-2 text-sm text-red-700"
                >
                  {refundFields.refundAmount.errors[0]}
                </p>
              ) : null}
            </Form>
          )}
        </section>
      </div>

      <NoticeToast notice={notice} />
    </div>
  );
}
