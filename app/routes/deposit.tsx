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
  useRouteLoaderData,
} from "@remix-run/react";
import { lazy, Suspense, useEffect, useState } from "react";
import { NoticeToast, type Notice } from "~/components/deposit/notice";
import type { loader as rootLoader } from "~/root";
import { PaymentGatewayError } from "~/services/adapters/payments/index.server";
import {
  DepositError,
  depositPageData,
  refundDeposit,
  startDeposit,
} from "~/services/deposits.server";
import { consumeRateLimit } from "~/services/rate-limit.server";
import { requireUser } from "~/services/session.server";
import { redirectWithToast } from "~/services/toast.server";
import { formatUsd } from "~/utils/cents";
import { env } from "~/utils/env.server";
import { DEPOSIT_PRESETS, depositAmount, depositPageSchema } from "~/utils/schemas/deposit";

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

export async function action({ request }: ActionFunctionArgs) {
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

const KIND_LABELS = {
  deposit: "Deposit",
  refund: "Refund",
  applied: "Applied to purchase",
  adjustment: "Adjustment",
} as const;

const dateFormat = new Intl.DateTimeFormat("en-US", {
  dateStyle: "medium",
  timeStyle: "short",
  timeZone: "UTC",
});

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
  const rootData = useRouteLoaderData<typeof rootLoader>("root");
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

  const flash = (rootData?.toast as Notice | null) ?? null;
  // A newer flash toast (after a form post) replaces whatever this page showed before.
  useEffect(() => {
    if (flash) setClientNotice(null);
  }, [flash]);
  const notice: Notice | null = clientNotice ?? (page.success ? SUCCESS : flash);
  const customNumber = Number(customText.replace(/[$,]/g, ""));
  const setAmountDisabled = hydrated && (customText.trim() === "" || !(customNumber >= 400));
  const busy = navigation.state !== "idle";

  return (
    <div className="mx-auto max-w-5xl px-3 py-8 sm:px-6">
      <h1 className="text-2xl font-black tracking-tight sm:text-3xl">Secure Your Bidding Power</h1>
      <p className="mt-1 text-slate-600">
        Your refundable deposit sets how much you can bid. Unused funds are fully refundable.
      </p>

      {page.testMode ? (
        <p
          className="mt-4 rounded-lg border-2 border-dashed border-accent-500 bg-amber-50 p-3 text-sm"
          data-testid="test-mode"
        >
          <strong className="mr-2 rounded bg-accent-500 px-1.5 py-0.5 font-bold text-slate-900">
            TEST MODE
          </strong>
          PayPal is not configured: payments go through BidYard&apos;s built-in test gateway and no
          real money moves.
        </p>
      ) : null}

      <section
        aria-labelledby="balance-heading"
        className="mt-6 rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
      >
        <div className="flex flex-wrap items-center justify-between gap-3">
          <div>
            <h2 id="balance-heading" className="text-sm font-medium text-slate-500">
              Current Account Balance
            </h2>
            <p className="text-3xl font-bold" data-testid="balance">
              {formatUsd(page.balance)}
            </p>
          </div>
          {page.biddingEnabled ? (
            <span className="rounded-full bg-emerald-100 px-3 py-1 text-sm font-semibold text-emerald-800">
              Bidding Enabled
            </span>
          ) : (
            <span className="rounded-full bg-amber-100 px-3 py-1 text-sm font-semibold text-amber-900">
              Minimum Deposit Required
            </span>
          )}
        </div>
        {!page.biddingEnabled ? (
          <p role="alert" className="mt-4 rounded-lg bg-amber-50 p-3 text-sm text-amber-900">
            You need at least $400 to start bidding on auctions.
          </p>
        ) : null}
      </section>

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

      <ul
        aria-label="Security"
        className="mt-8 flex flex-wrap gap-3 text-sm font-medium text-slate-700"
      >
        {["SSL Encrypted", "PCI Compliant", "Fully Refundable"].map((badge) => (
          <li key={badge} className="rounded-full border border-slate-200 bg-white px-3 py-1">
            {badge}
          </li>
        ))}
      </ul>

      <div className="mt-8 grid gap-6 lg:grid-cols-2">
        <section aria-labelledby="history-heading">
          <h2 id="history-heading" className="text-lg font-bold">
            Deposit History
          </h2>
          {page.history.length === 0 ? (
            <p className="mt-2 text-sm text-slate-600">No deposits yet.</p>
          ) : (
            <ol className="mt-2 divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white">
              {page.history.map((entry) => (
                <li key={entry.id} className="flex flex-wrap justify-between gap-2 p-3 text-sm">
                  <div>
                    <p className="font-semibold">{KIND_LABELS[entry.kind]}</p>
                    <p className="text-slate-500">
                      {dateFormat.format(new Date(entry.createdAt))} UTC
                      {entry.memo ? ` · ${entry.memo}` : ""}
                    </p>
                  </div>
                  <div className="text-right">
                    <p
                      className={`font-semibold ${
                        entry.amount.startsWith("-") ? "text-red-700" : "text-emerald-700"
                      }`}
                    >
                      {entry.amount.startsWith("-") ? "−" : "+"}
                      {formatUsd(entry.amount.replace(/^-/, ""))}
                    </p>
                    <p className="text-slate-500">Balance {formatUsd(entry.balanceAfter)}</p>
                  </div>
                </li>
              ))}
            </ol>
          )}
        </section>

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
