import type React from "react";
import { LocalTime } from "~/components/local-time";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { OrderProgress } from "~/components/affiliates/order-progress";
import { TransportReview } from "~/components/affiliates/transport-review";
import {
  confirmTransportPayment,
  paymentPreview,
  requireOwnTransportOrder,
} from "~/services/affiliates/transport-payments.server";
import { consumeRateLimit } from "~/platform/rate-limit.server";
import { OrderActions, ProgressBar, StatusBadge } from "~/components/affiliates/order-card";
import { Badge } from "~/components/affiliates/ui";
import { isUserError } from "~/utils/user-error";
import {
  messageAsToast,
  ORDER_STEP_DONE,
  TRANSPORT_MESSAGES,
} from "~/services/affiliates/messages";
import { canViewOrder, getOrderForViewer } from "~/services/affiliates/service-order-views.server";
import { runOrderStep } from "~/services/affiliates/service-order-progress.server";
import { getApplication } from "~/services/affiliates/applications.server";
import { pickupPapersFor } from "~/services/affiliates/pickup-papers.server";
import { PickupPapersCard } from "~/components/affiliates/pickup-papers";
import { providerStatus } from "~/services/affiliates/status";
import { requireUser } from "~/services/accounts/session.server";
import { redirectWithToast } from "~/http/toast.server";
import { safeRedirect } from "~/http/http.server";
import { formatUsd } from "~/utils/money";
import { OrderIntentSchema, PayTransportSchema } from "~/services/affiliates/schemas";
import { vehicleTypeLabel } from "~/services/affiliates/rules";
import { parseWithZod } from "@conform-to/zod/v4";
import { MessageForm } from "~/components/messages/message-form";
import { messageSchema } from "~/services/messages/schemas";
import { MESSAGE_SENT } from "~/services/messages/messages";
import { messageAboutOrder, orderThreadId } from "~/services/messages/messages.server";
import { replyFor } from "~/http/respond.server";
import { guardAction, guardLoader } from "~/http/route-guards.server";
import { readForm } from "~/http/form-body.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  {
    title: data
      ? `${data.order.vehicleLabel} · Service Order · BidYard`
      : "Service Order · BidYard",
  },
];

const PAYPAL = ["https://www.paypal.com", "https://www.sandbox.paypal.com"];
// the review step's pay buttons post here and may be redirected to PayPal's approval page
export const handle = { csp: { formAction: PAYPAL } };

export const loader = (args: LoaderFunctionArgs) => guardLoader(args, load);

async function load({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  try {
    const [view, application] = await Promise.all([
      getOrderForViewer(params.id ?? "", user),
      getApplication(user.id),
    ]);
    const payment =
      view.order.requestedByMe && view.order.paymentStatus === "unpaid"
        ? await paymentPreview(user.id, view.order.estimatedPayout)
        : null;
    // the carrier that claimed the job gets the yard and the delivery address (record 3531)
    const papers = view.order.claimedByMe ? await pickupPapersFor(view.order.id, user.id) : null;
    // the buyer and the carrier of a claimed job write to each other here (record 3535)
    const talks =
      view.order.claimedByMe || (view.order.requestedByMe && view.order.status !== "open");
    const thread = talks
      ? {
          id: await orderThreadId(user.id, view.order.id),
          to: view.order.claimedByMe ? "buyer" : "carrier",
        }
      : null;
    return { ...view, payment, papers, thread, provider: providerStatus(application) };
  } catch (error) {
    if (isUserError(error)) throw new Response(error.message, { status: error.status });
    throw error;
  }
}

/** The buyer confirms the quote: paid from the deposit, or off to the provider's checkout. */
async function pay(request: Request, userId: string, orderId: string, form: FormData) {
  // someone else's order is not found, whatever the form says (record 3202)
  try {
    await requireOwnTransportOrder(userId, orderId);
  } catch (error) {
    if (!isUserError(error)) throw error;
    return data({ payError: error.message }, { status: error.status });
  }
  const parsed = PayTransportSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) return data({ payError: parsed.error.issues[0].message }, { status: 400 });
  await consumeRateLimit(request, "payment", userId);
  try {
    const result = await confirmTransportPayment(
      userId,
      orderId,
      parsed.data.price,
      parsed.data.source,
    );
    if (!result.paid) return redirect(result.approvalUrl);
    return redirectWithToast(
      `/service-orders/${orderId}`,
      { ...messageAsToast(TRANSPORT_MESSAGES.paidFromDeposit, "Paid"), type: "success" },
      { status: 303 },
    );
  } catch (error) {
    if (!isUserError(error)) throw error;
    return data({ payError: error.message }, { status: error.status });
  }
}

/** The buyer or the carrier writes to the other; the message lands in their thread (record 3535). */
async function sendMessage(request: Request, userId: string, orderId: string, form: FormData) {
  const submission = parseWithZod(form, { schema: messageSchema });
  if (submission.status !== "success") return data({ reply: submission.reply() }, { status: 400 });
  await consumeRateLimit(request, "message", userId);
  try {
    const threadId = await messageAboutOrder(userId, orderId, submission.value.body);
    return redirectWithToast(`/messages/${threadId}`, MESSAGE_SENT);
  } catch (error) {
    if (!isUserError(error)) throw error;
    // someone who may not open the job learns nothing more than its page tells them
    if (error.status === 404) throw new Response(error.message, { status: 404 });
    return data({ reply: replyFor(submission, error) }, { status: error.status });
  }
}

export const action = (args: ActionFunctionArgs) => guardAction(args, act);

/** The form path of every step (claim, start, complete, pay), with or without JavaScript. */
async function act({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const orderId = params.id ?? "";
  const form = await readForm(request);
  if (form.get("intent") === "pay") return pay(request, user.id, orderId, form);
  if (form.get("intent") === "send") return sendMessage(request, user.id, orderId, form);
  const parsed = OrderIntentSchema.safeParse(Object.fromEntries(form));
  const back = safeRedirect(
    parsed.success ? parsed.data.redirectTo : null,
    `/service-orders/${orderId}`,
  );
  if (!parsed.success)
    return redirectWithToast(back, { title: "Unknown action", type: "error" }, { status: 303 });
  const step = parsed.data.intent;
  try {
    await runOrderStep(user.id, orderId, step);
  } catch (error) {
    if (!isUserError(error)) throw error;
    const toast = messageAsToast(error.message, "Could not update the order");
    // A lost claim leaves an order this person may no longer open: back to the board instead.
    const to =
      back === `/service-orders/${orderId}` && !(await canViewOrder(orderId, user))
        ? "/service-orders"
        : back;
    return redirectWithToast(to, { ...toast, type: "error" }, { status: 303 });
  }
  return redirectWithToast(back, { ...ORDER_STEP_DONE[step], type: "success" }, { status: 303 });
}

export default function ServiceOrderPage() {
  const { order, details, payment, papers, thread, provider } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const location = useLocation();
  const isExport = order.serviceType === "export";
  // the buyer of an unpaid job pays above; no one acts on it until it is on the board
  const canAct = (order.status === "open" && order.paymentStatus !== "unpaid") || order.claimedByMe;
  return (
    <div className="mx-auto max-w-3xl px-4 py-8 sm:px-6">
      <Link to="/service-orders" className="text-sm font-semibold text-brand-700 hover:underline">
        ← Service Orders
      </Link>
      <div className="mt-4 rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div>
            <h1 className="text-2xl font-bold">{order.vehicleLabel}</h1>
            <p className="text-sm text-slate-500">Order #{order.id}</p>
          </div>
          <div className="flex gap-2">
            <Badge tone={isExport ? "purple" : "blue"}>{isExport ? "Export" : "Shipping"}</Badge>
            <StatusBadge status={order.status} />
          </div>
        </div>
        <div className="mt-4">
          {order.requestedByMe ? (
            order.paymentStatus === "unpaid" ? (
              <p className="text-sm font-semibold text-yellow-800">Waiting for your payment</p>
            ) : (
              <OrderProgress status={order.status} />
            )
          ) : (
            <ProgressBar value={order.progress} />
          )}
        </div>
        {payment ? (
          <TransportReview
            order={order}
            preview={payment}
            error={actionData && "payError" in actionData ? actionData.payError : null}
            busy={navigation.state !== "idle"}
          />
        ) : null}
        <dl className="mt-6 grid gap-x-6 gap-y-3 sm:grid-cols-2">
          {order.requestedByMe ? (
            <Item
              label="Price"
              value={`${formatUsd(order.estimatedPayout)}${order.paymentStatus === "paid" ? " (paid)" : ""}`}
            />
          ) : (
            <>
              <Item label="Estimated payout" value={formatUsd(order.estimatedPayout)} />
              <Item
                label="You receive"
                value={`${formatUsd(order.netPayout)} (after the ${formatUsd(order.platformFee)} platform fee)`}
              />
            </>
          )}
          <Item label="Pickup" value={order.pickupLocation} />
          {order.pickupYard ? <Item label="Pickup yard" value={order.pickupYard} /> : null}
          <Item label={isExport ? "Export Port" : "Delivery"} value={order.deliveryLocation} />
          {isExport ? (
            <Item label="Destination country" value={order.destinationCountry ?? ""} />
          ) : (
            <Item
              label="Distance"
              value={`${(order.distanceMiles ?? 0).toLocaleString("en-US")} miles`}
            />
          )}
          {vehicleLine(order.vehicleType, order.bodyStyle)}
          {order.lotReference ? <Item label="Lot" value={order.lotReference} /> : null}
          <Item label="Created" value={<LocalTime at={order.createdAt} />} />
          {order.claimedAt ? (
            <Item label="Claimed" value={<LocalTime at={order.claimedAt} />} />
          ) : null}
          {order.startedAt ? (
            <Item label="Started" value={<LocalTime at={order.startedAt} />} />
          ) : null}
          {order.completedAt ? (
            <Item label="Completed" value={<LocalTime at={order.completedAt} />} />
          ) : null}
        </dl>
        {details ? (
          <section className="mt-6 rounded-lg bg-slate-50 p-4" aria-labelledby="customer-heading">
            <h2 id="customer-heading" className="font-semibold">
              Customer
            </h2>
            {details.requester ? (
              details.requester.email ? (
                <p className="mt-1 text-sm">
                  {details.requester.name} · {details.requester.email}
                </p>
              ) : (
                // the carrier gets the buyer's first name, not their contact (record 3530)
                <p className="mt-1 text-sm" data-testid="customer">
                  {details.requester.name}. BidYard does not share the buyer&apos;s e-mail or phone:
                  the yard releases the vehicle on the gate pass, and you write to the buyer through
                  BidYard&apos;s messages below.
                </p>
              )
            ) : (
              <p className="mt-1 text-sm text-slate-600">Created by BidYard staff.</p>
            )}
          </section>
        ) : null}
        {papers ? <PickupPapersCard papers={papers} /> : null}
        {thread ? (
          <section className="mt-6" aria-labelledby="message-heading">
            <h2 id="message-heading" className="font-semibold">
              {thread.to === "buyer" ? "Message the buyer" : "Message the carrier"}
            </h2>
            {thread.id ? (
              <p className="mt-1 text-sm">
                <Link to={`/messages/${thread.id}`} className="text-brand-700 underline">
                  Open the conversation
                </Link>
              </p>
            ) : null}
            <MessageForm
              lastResult={actionData && "reply" in actionData ? actionData.reply : undefined}
              label={
                thread.to === "buyer" ? "Your message to the buyer" : "Your message to the carrier"
              }
              submitLabel="Send message"
              pending={navigation.state === "submitting"}
            />
          </section>
        ) : null}
        {canAct ? (
          <div className="mt-6 flex flex-wrap gap-2">
            <OrderActions
              order={order}
              provider={provider}
              showDetails={false}
              redirectTo={`${location.pathname}${location.search}`}
            />
          </div>
        ) : order.status !== "open" && !order.requestedByMe ? (
          <p className="mt-6 text-sm text-slate-600">This order was claimed by another provider.</p>
        ) : null}
      </div>
    </div>
  );
}

function Item({ label, value }: { label: string; value: React.ReactNode }) {
  return (
    <div>
      <dt className="text-xs uppercase tracking-wide text-slate-500">{label}</dt>
      <dd className="mt-0.5 text-sm font-medium">{value}</dd>
    </div>
  );
}

/**
 * One line for the vehicle (record 3323): the carriers' type (what the price and the trailer go
 * by). It is read from the lot's body style, so the body style is shown only when no type is
 * known ("Sedan" beside "SEDAN 4D" said one fact twice).
 */
function vehicleLine(type: string | null, bodyStyle: string | null) {
  if (type) return <Item label="Vehicle type" value={vehicleTypeLabel(type)} />;
  return bodyStyle ? <Item label="Body style" value={bodyStyle} /> : null;
}
