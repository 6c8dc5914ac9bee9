import { parseWithZod } from "@conform-to/zod/v4";
import {
  data,
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { InvoiceLines } from "~/components/purchases/invoice-lines";
import { TransportOrders } from "~/components/purchases/transport-orders";
import { listOrdersForLot } from "~/services/affiliates/service-order-views.server";
import { requireUser } from "~/services/accounts/session.server";
import { findOwnPurchase, purchaseView } from "~/services/purchases/invoices.server";
import { AlreadyPaidError, PAID_ONCE, payPurchase } from "~/services/purchases/paying.server";
import { paySchema } from "~/services/purchases/schemas";
import { PURCHASE_STATUS_LABELS, shipItLink } from "~/services/purchases/status";
import { redirectWithToast } from "~/http/toast.server";
import { consumeRateLimit } from "~/platform/rate-limit.server";
import { paymentGateway } from "~/platform/payments/index.server";
import { formatUsd, fromCents } from "~/utils/money";
import { isUserError } from "~/utils/user-error";
import { LocalTime } from "~/components/local-time";
import { PenaltyTerms } from "~/components/purchases/penalty-terms";
import { PayChoice } from "~/components/purchases/pay-choice";
import { paidParts } from "~/services/purchases/pay-words";
import { guardAction, guardLoader } from "~/http/route-guards.server";
import { readForm } from "~/http/form-body.server";

/** One kind's part of what paid the purchase ("deposit", "gateway"), formatted, or null. */
function paidCents(paid: Array<{ kind: string; cents: number }>, kind: string) {
  const cents = paid.filter((p) => p.kind === kind).reduce((sum, p) => sum + p.cents, 0);
  return cents > 0 ? formatUsd(cents, "cents") : null;
}

export const handle = {
  // the pay form posts here and is redirected to PayPal's approval page
  csp: { formAction: ["https://www.paypal.com", "https://www.sandbox.paypal.com"] },
};

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.purchase.lot.title ?? "Purchase"} · Purchase · BidYard` },
];

async function view(request: Request, id: string) {
  const user = await requireUser(request);
  try {
    return { user, purchase: await purchaseView(user.id, id) };
  } catch (error) {
    if (isUserError(error) && error.status === 404)
      throw new Response(error.message, { status: 404 });
    throw error;
  }
}

export const loader = (args: LoaderFunctionArgs) => guardLoader(args, load);

async function load({ request, params }: LoaderFunctionArgs) {
  const { user, purchase } = await view(request, params.id ?? "");
  const transport = await listOrdersForLot(purchase.lotId, user.id);
  return data(
    { purchase, transport, testMode: paymentGateway().testMode },
    { headers: { "Cache-Control": "no-store" } },
  );
}

export const action = (args: ActionFunctionArgs) => guardAction(args, act);

async function act({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const id = params.id ?? "";
  // someone else's invoice is not found, whatever the form says (record 3202)
  await findOwnPurchase(user.id, id).catch((error: unknown) => {
    if (isUserError(error)) throw new Response(error.message, { status: error.status });
    throw error;
  });
  const submission = parseWithZod(await readForm(request), { schema: paySchema });
  if (submission.status !== "success") {
    return data({ error: "The payment form was incomplete. Please pay again." }, { status: 400 });
  }
  await consumeRateLimit(request, "payment", user.id);
  try {
    const { amount, source } = submission.value;
    const outcome = await payPurchase(user.id, id, fromCents(amount), source);
    if (!outcome.paid) return redirect(outcome.approvalUrl);
    return redirectWithToast(`/purchases/${id}/release`, {
      title: "Purchase paid",
      description: "Your deposit paid the invoice. Your release is below.",
      type: "success",
    });
  } catch (error) {
    if (!isUserError(error)) throw error;
    // a second post (a re-sent form, another tab) lands on the paid invoice, told it was paid once
    if (error instanceof AlreadyPaidError)
      return redirectWithToast(`/purchases/${id}`, { ...PAID_ONCE, type: "info" }, { status: 303 });
    if (error.status === 404) throw new Response(error.message, { status: 404 });
    return data({ error: error.message }, { status: error.status });
  }
}

export default function PurchasePage() {
  const { purchase, transport, testMode } = useLoaderData<typeof loader>();
  // what paid it, in the receipt e-mail's words (record 3512)
  const paidWith = paidParts({
    deposit: paidCents(purchase.paid, "deposit"),
    gateway: paidCents(purchase.paid, "gateway"),
  });
  const actionData = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  const { lot, split } = purchase;
  return (
    <div className="mx-auto max-w-3xl px-3 py-8 sm:px-6">
      <p className="text-sm">
        <Link to="/my-auctions#won" className="text-brand-700 underline">
          My auctions
        </Link>
      </p>
      <h1 className="mt-2 text-2xl font-black tracking-tight sm:text-3xl">{lot.title}</h1>
      <p className="mt-1 text-slate-600">
        {lot.auctionHouse} lot {lot.lotNumber} · VIN {lot.vin} · {lot.yard}, {lot.address}
      </p>
      <p className="mt-3">
        Status:{" "}
        <strong data-testid="purchase-status">{PURCHASE_STATUS_LABELS[purchase.status]}</strong>
        {purchase.status === "pending" && purchase.dueAt ? (
          <span className={purchase.overdue ? "text-red-700" : "text-slate-600"}>
            {" "}
            · {purchase.overdue ? "was due" : "due"}{" "}
            <LocalTime at={purchase.dueAt} style="deadline" testId="due-at" />
          </span>
        ) : null}
      </p>

      <section
        aria-labelledby="invoice-heading"
        className="mt-6 rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
      >
        <h2 id="invoice-heading" className="text-lg font-bold">
          Invoice
        </h2>
        <InvoiceLines
          lines={purchase.lines}
          totalCents={purchase.totalCents}
          caption="Invoice lines"
        />
        {purchase.status === "pending" ? (
          <PenaltyTerms terms={purchase.terms} />
        ) : purchase.status === "paid" ? (
          <>
            {/* what paid it, in the receipt e-mail's words (record 3512) */}
            <p className="mt-3 text-sm" data-testid="paid-with">
              Paid
              {purchase.paidAt ? (
                <>
                  {" "}
                  <LocalTime at={purchase.paidAt} />
                </>
              ) : null}
              {paidWith.length > 0 ? `, once: ${paidWith.join(" ")}` : "."}
            </p>
            <PenaltyTerms terms={purchase.terms} heading="Storage at the yard" only={["storage"]} />
          </>
        ) : null}
      </section>

      {split ? (
        <section
          aria-labelledby="pay-heading"
          className="mt-6 rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
        >
          <h2 id="pay-heading" className="text-lg font-bold">
            Pay
          </h2>
          {purchase.dueAt && !purchase.overdue && purchase.terms.lateFeeCents > 0 ? (
            <p className="mt-2 text-sm text-slate-700" data-testid="pay-by">
              Pay by <LocalTime at={purchase.dueAt} /> to avoid the{" "}
              {formatUsd(purchase.terms.lateFeeCents, "cents")} late fee.
            </p>
          ) : null}
          {actionData?.error ? (
            <p role="alert" className="mt-3 rounded bg-red-50 p-2 text-sm text-red-800">
              {actionData.error}
            </p>
          ) : null}
          {purchase.choices ? (
            <PayChoice
              totalCents={purchase.totalCents}
              choices={purchase.choices}
              testMode={testMode}
              busy={busy}
            />
          ) : null}
        </section>
      ) : null}

      {purchase.status === "paid" ? (
        <section
          aria-labelledby="next-heading"
          className="mt-6 rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
        >
          <h2 id="next-heading" className="text-lg font-bold">
            Next
          </h2>
          <ul className="mt-2 space-y-2">
            <li>
              <Link
                to={`/purchases/${purchase.id}/release`}
                className="font-semibold text-brand-700 underline"
              >
                Print the release (pickup code)
              </Link>
            </li>
            <li>
              <Link
                to={shipItLink(purchase.lotId)}
                className="font-semibold text-brand-700 underline"
              >
                Ship it
              </Link>
              <span className="text-sm text-slate-600">
                : get a transport quote from the yard to you
              </span>
            </li>
          </ul>
        </section>
      ) : null}
      <TransportOrders orders={transport} />
      {purchase.status === "defaulted" ? (
        <p className="mt-6 rounded bg-red-50 p-3 text-red-800">
          This purchase was defaulted for non-payment
          {purchase.defaultFeeCents
            ? `; a default fee of ${formatUsd(purchase.defaultFeeCents, "cents")} was taken from your deposit`
            : ""}
          .
        </p>
      ) : null}
    </div>
  );
}
