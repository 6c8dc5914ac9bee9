import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { CityList, DestinationFields } from "~/components/affiliates/destination-fields";
import { primaryButton, secondaryButton } from "~/components/affiliates/ui";
import { cityLabel, EXPORT_PORTS, US_CITIES } from "~/services/affiliates/us-cities";
import { isUserError } from "~/utils/user-error";
import { listPurchasesForService } from "~/services/affiliates/service-order-views.server";
import { quoteServiceForPurchase } from "~/services/affiliates/service-order-quotes.server";
import { requestServiceForPurchase } from "~/services/affiliates/service-orders.server";
import { formatUsd } from "~/utils/money";
import { requireUser } from "~/services/accounts/session.server";
import { keepingTypedForm, takeKeptForm } from "~/http/kept-form.server";
import { KeptFormNotice } from "~/components/kept-form-notice";
import { redirectWithToast } from "~/http/toast.server";
import { DESTINATION_COUNTRIES, PurchaseServiceRequestSchema } from "~/services/affiliates/schemas";
import { TRANSPORT_MESSAGES } from "~/services/affiliates/messages";
import { guardAction, guardLoader } from "~/http/route-guards.server";
import { readForm } from "~/http/form-body.server";

export const meta: MetaFunction = () => [{ title: "Ship or export your vehicle · BidYard" }];

export const loader = (args: LoaderFunctionArgs) => guardLoader(args, load);

/**
 * `?lot=<lotId>` ("Ship it" on a purchase) preselects that paid lot; a lot that is not one of the
 * buyer's own paid lots is ignored with a notice, and all their vehicles are offered instead.
 */
async function load({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const lot = new URL(request.url).searchParams.get("lot");
  const chosen = lot ? await listPurchasesForService(user.id, { lotId: lot.trim() }) : [];
  // what was typed before a session ended comes back once (see record 3320)
  const { restored, headers } = await takeKeptForm(request, user.id);
  return data(
    {
      purchases: chosen.length > 0 ? chosen : await listPurchasesForService(user.id),
      preselected: chosen.length > 0,
      notice: lot && chosen.length === 0 ? TRANSPORT_MESSAGES.lotNotYours : null,
      cities: US_CITIES.map(cityLabel).sort(),
      ports: EXPORT_PORTS.map(cityLabel).sort(),
      restored,
    },
    { headers },
  );
}

type ActionErrors = {
  purchaseId: string;
  values: Record<string, string>;
  fieldErrors: Record<string, string[]>;
  formError?: string;
  /** "See price": what the order would cost, before it is asked for (record 3323). */
  quote?: Awaited<ReturnType<typeof quoteServiceForPurchase>>;
};

export const action = (args: ActionFunctionArgs) => guardAction(args, act);

async function act({ request }: ActionFunctionArgs) {
  const user = await keepingTypedForm(request, () => requireUser(request));
  const values = Object.fromEntries(
    [...(await readForm(request)).entries()].map(([key, value]) => [key, String(value)]),
  );
  const purchaseId = values.purchaseId ?? "";
  const parsed = PurchaseServiceRequestSchema.safeParse(values);
  if (!parsed.success) {
    const fieldErrors: Record<string, string[]> = {};
    for (const issue of parsed.error.issues)
      (fieldErrors[String(issue.path[0])] ??= []).push(issue.message);
    return data<ActionErrors>({ purchaseId, values, fieldErrors }, { status: 400 });
  }
  try {
    if (values.intent === "quote") {
      const quote = await quoteServiceForPurchase(user.id, parsed.data);
      return data<ActionErrors>({ purchaseId, values, fieldErrors: {}, quote });
    }
    const order = await requestServiceForPurchase(user.id, parsed.data);
    // the order page is the review step: route, service and price, then confirm and pay
    return redirectWithToast(
      `/service-orders/${order.id}`,
      {
        title: "Quote Ready",
        description: `Review your ${order.serviceType} quote and confirm to pay. Providers see the job once it is paid.`,
        type: "success",
      },
      { status: 303 },
    );
  } catch (error) {
    if (!isUserError(error)) throw error;
    return data<ActionErrors>(
      { purchaseId, values, fieldErrors: {}, formError: error.message },
      { status: error.status },
    );
  }
}

export default function RequestService() {
  const { purchases, preselected, notice, cities, ports, restored } =
    useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  return (
    <div className="mx-auto max-w-4xl px-4 py-8 sm:px-6">
      <Link to="/service-orders" className="text-sm font-semibold text-brand-700 hover:underline">
        ← Service Orders
      </Link>
      <h1 className="mt-3 text-2xl font-bold">Ship or export a vehicle you won</h1>
      <p className="mt-1 text-slate-600">
        Pickup is the yard where your vehicle sits. Approved providers claim the job from the board.
      </p>
      {notice ? (
        <p role="status" className="mt-4 rounded-md bg-yellow-50 p-3 text-sm text-yellow-900">
          {notice}
        </p>
      ) : null}
      <div className="mt-4">
        <KeptFormNotice restored={restored} />
      </div>
      {preselected ? (
        <p className="mt-2 text-sm">
          <Link to="/service-orders/request" className="text-brand-700 underline">
            Show all my won vehicles
          </Link>
        </p>
      ) : null}
      <CityList cities={cities} />
      {purchases.length === 0 ? (
        <p className="mt-6 rounded-xl border border-dashed border-slate-300 bg-white p-8 text-center">
          You have no paid vehicles to ship yet. Transport is booked once a purchase is paid: see{" "}
          <Link to="/my-auctions" className="font-semibold text-brand-700 underline">
            My auctions
          </Link>
          .
        </p>
      ) : (
        <ul className="mt-6 space-y-5">
          {purchases.map((purchase) => {
            const mine = result?.purchaseId === purchase.purchaseId ? result : null;
            const kept =
              restored?.fields.purchaseId === purchase.purchaseId ? restored.fields : null;
            const field = (name: string) => ({
              id: `p${purchase.purchaseId}-${name}`,
              name,
              errorId: `p${purchase.purchaseId}-${name}-error`,
              errors: mine?.fieldErrors[name],
              initialValue:
                mine?.values[name] ?? kept?.[name] ?? (name === "serviceType" ? "shipping" : ""),
            });
            return (
              <li
                key={purchase.purchaseId}
                className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
              >
                <h2 className="font-semibold">{purchase.vehicleLabel}</h2>
                <p className="text-sm text-slate-600">
                  Pickup: {purchase.pickupYard ? `${purchase.pickupYard}, ` : ""}
                  {purchase.pickupLocation}
                </p>
                {purchase.orders.length > 0 ? (
                  <ul className="mt-2 flex flex-wrap gap-2 text-sm">
                    {purchase.orders.map((order) => (
                      <li key={order.id}>
                        <Link to={`/service-orders/${order.id}`} className={secondaryButton}>
                          {order.serviceType} order:{" "}
                          {order.paymentStatus === "unpaid"
                            ? "waiting for payment"
                            : order.status.replace("_", " ")}
                        </Link>
                      </li>
                    ))}
                  </ul>
                ) : null}
                <Form method="post" className="mt-4 space-y-4">
                  <input type="hidden" name="purchaseId" value={purchase.purchaseId} />
                  {mine?.formError ? (
                    <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-800">
                      {mine.formError}
                    </p>
                  ) : null}
                  <DestinationFields
                    fields={{
                      serviceType: field("serviceType"),
                      delivery: field("delivery"),
                      deliveryStreet: field("deliveryStreet"),
                      exportPort: field("exportPort"),
                      destinationCountry: field("destinationCountry"),
                    }}
                    cities={cities}
                    withCityList={false}
                    ports={ports}
                    countries={DESTINATION_COUNTRIES}
                  />
                  {mine?.quote ? (
                    <div
                      role="status"
                      data-testid="transport-quote"
                      className="rounded-lg border border-emerald-200 bg-emerald-50 p-4 text-sm text-emerald-950"
                    >
                      <p className="text-base font-bold">Price: {formatUsd(mine.quote.price)}</p>
                      <p className="mt-1">
                        {mine.quote.serviceType === "export" ? "Export" : "Shipping"} from{" "}
                        {mine.quote.from} to {mine.quote.to}
                        {mine.quote.serviceType === "shipping"
                          ? `, about ${roadMilesText(mine.quote.miles)}`
                          : ""}
                        .
                      </p>
                      <p className="mt-1">
                        Nothing is charged yet: Request service keeps this price, and you pay on the
                        next step (from your deposit or through PayPal).
                      </p>
                    </div>
                  ) : (
                    <p className="text-sm text-slate-600">
                      See price shows what this costs before you ask for anything.
                    </p>
                  )}
                  <div className="flex flex-wrap gap-3">
                    {/* first, so Enter in a field asks for the price, not the order */}
                    <button
                      type="submit"
                      name="intent"
                      value="quote"
                      className={secondaryButton}
                      disabled={navigation.state !== "idle"}
                    >
                      See price
                    </button>
                    <button
                      type="submit"
                      name="intent"
                      value="request"
                      className={primaryButton}
                      disabled={navigation.state !== "idle"}
                    >
                      Request service
                    </button>
                  </div>
                </Form>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}

/** "1 road mile", "18 road miles". */
function roadMilesText(miles: number) {
  return `${miles.toLocaleString("en-US")} road ${miles === 1 ? "mile" : "miles"}`;
}
