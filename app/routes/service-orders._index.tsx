import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import {
  Form,
  Link,
  useLoaderData,
  useLocation,
  useNavigation,
  useRevalidator,
} from "@remix-run/react";
import { useEffect } from "react";
import { OrderCard } from "~/components/affiliates/order-card";
import {
  Badge,
  inputClass,
  labelClass,
  primaryButton,
  secondaryButton,
} from "~/components/affiliates/ui";
import { getApplication } from "~/modules/affiliates/applications.server";
import { requireUser } from "~/modules/accounts/session.server";
import {
  countAffiliateOrders,
  listAffiliateOrders,
  listOpenOrders,
  hasPurchasesForService,
  toPublicOrder,
} from "~/modules/affiliates/service-orders.server";
import {
  parseServiceOrderFilters,
  PICKUP_STATE_OPTIONS,
  VEHICLE_TYPE_OPTIONS,
} from "~/modules/affiliates/schemas";

export const meta: MetaFunction = () => [{ title: "Service Orders · BidYard" }];

export const REFRESH_MS = 10_000;

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const filters = parseServiceOrderFilters(new URL(request.url).searchParams);
  const application = await getApplication(user.id);
  const approved = application?.status === "approved";
  const [open, mine, myCount, hasPurchases] = await Promise.all([
    listOpenOrders(filters),
    approved && filters.tab === "mine" ? listAffiliateOrders(user.id) : Promise.resolve([]),
    approved ? countAffiliateOrders(user.id) : Promise.resolve(0),
    hasPurchasesForService(user.id),
  ]);
  return {
    filters,
    affiliateStatus: application?.status ?? null,
    approved,
    available: open.map((order) => toPublicOrder(order, user)),
    mine: mine.map((order) => toPublicOrder(order, user)),
    myCount,
    hasPurchases,
  };
}

const selectOptions = (values: readonly string[], all: string) => [
  { value: "all", label: all },
  ...values.map((value) => ({ value, label: value.length <= 3 ? value : capitalize(value) })),
];
const capitalize = (value: string) =>
  value === "suv" ? "SUV" : value.charAt(0).toUpperCase() + value.slice(1);

export default function ServiceOrders() {
  const data = useLoaderData<typeof loader>();
  const { filters, approved } = data;
  const location = useLocation();
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  const redirectTo = `${location.pathname}${location.search}`;

  // With JS the list refreshes every 10 seconds (SPEC.md §9), quietly, while the tab is visible.
  useEffect(() => {
    const timer = window.setInterval(() => {
      if (document.visibilityState === "visible" && revalidator.state === "idle")
        revalidator.revalidate();
    }, REFRESH_MS);
    return () => window.clearInterval(timer);
  }, [revalidator]);

  const tab = filters.tab === "mine" ? "mine" : "available";
  const loading =
    navigation.state === "loading" && navigation.location.pathname === "/service-orders";
  const tabHref = (name: "available" | "mine") => {
    const params = new URLSearchParams(location.search);
    if (name === "mine") params.set("tab", "mine");
    else params.delete("tab");
    const query = params.toString();
    return `/service-orders${query ? `?${query}` : ""}`;
  };

  return (
    <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="text-3xl font-bold">Service Orders</h1>
          {data.affiliateStatus === "approved" ? (
            <Badge tone="green">Approved Affiliate</Badge>
          ) : data.affiliateStatus === "pending" ? (
            <Badge tone="yellow">Pending Approval</Badge>
          ) : null}
        </div>
        <div className="flex flex-wrap gap-2">
          {data.hasPurchases ? (
            <Link to="/service-orders/request" className={secondaryButton}>
              Ship or export a vehicle you won
            </Link>
          ) : null}
          {data.affiliateStatus === null || data.affiliateStatus === "rejected" ? (
            <Link to="/affiliate-registration" className={primaryButton}>
              Become a Service Provider
            </Link>
          ) : null}
        </div>
      </div>

      <nav aria-label="Order lists" className="mt-6 flex gap-2 border-b border-slate-200">
        <Link
          to={tabHref("available")}
          aria-current={tab === "available" ? "page" : undefined}
          className={`-mb-px border-b-2 px-4 py-2 text-sm font-semibold ${
            tab === "available"
              ? "border-brand-700 text-brand-800"
              : "border-transparent text-slate-600"
          }`}
        >
          Available Orders
        </Link>
        {approved ? (
          <Link
            to={tabHref("mine")}
            aria-current={tab === "mine" ? "page" : undefined}
            className={`-mb-px border-b-2 px-4 py-2 text-sm font-semibold ${
              tab === "mine"
                ? "border-brand-700 text-brand-800"
                : "border-transparent text-slate-600"
            }`}
          >
            My Orders ({data.myCount})
          </Link>
        ) : (
          <span
            aria-disabled="true"
            title="Affiliate Approval Required"
            className="-mb-px cursor-not-allowed border-b-2 border-transparent px-4 py-2 text-sm font-semibold text-slate-400"
          >
            My Orders ({data.myCount})
          </span>
        )}
      </nav>

      {tab === "available" ? (
        <section aria-labelledby="available-heading" className="mt-6">
          <h2 id="available-heading" className="sr-only">
            Available Orders
          </h2>
          <Form
            key={location.search}
            method="get"
            className="grid gap-3 rounded-xl border border-slate-200 bg-white p-4 sm:grid-cols-2 lg:grid-cols-6"
          >
            <FilterSelect
              name="serviceType"
              label="Service type"
              value={filters.serviceType}
              options={[
                { value: "all", label: "All services" },
                { value: "shipping", label: "Shipping" },
                { value: "export", label: "Export" },
              ]}
            />
            <FilterSelect
              name="pickupState"
              label="Pickup location"
              value={filters.pickupState}
              options={selectOptions(PICKUP_STATE_OPTIONS, "All locations")}
            />
            <FilterSelect
              name="destination"
              label="Destination"
              value={filters.destination}
              options={[
                { value: "all", label: "All destinations" },
                { value: "domestic", label: "Domestic" },
                { value: "international", label: "International" },
              ]}
            />
            <FilterSelect
              name="vehicleType"
              label="Vehicle type"
              value={filters.vehicleType}
              options={selectOptions(VEHICLE_TYPE_OPTIONS, "All vehicles")}
            />
            <div>
              <label htmlFor="filter-q" className={labelClass}>
                Keyword
              </label>
              <input
                id="filter-q"
                name="q"
                type="search"
                defaultValue={filters.q ?? ""}
                placeholder="City or vehicle"
                className={inputClass}
              />
            </div>
            <div className="flex items-end gap-2">
              <button type="submit" className={primaryButton}>
                Search
              </button>
              <Link to="/service-orders" className={secondaryButton}>
                Clear
              </Link>
            </div>
          </Form>
          <p className="mt-4 text-sm text-slate-600" aria-live="polite">
            {data.available.length} orders available
          </p>
          {loading ? (
            <Skeletons />
          ) : data.available.length === 0 ? (
            <Empty
              title="No service orders available"
              body="Check back soon, or change the filters."
            />
          ) : (
            <div className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
              {data.available.map((order) => (
                <OrderCard key={order.id} order={order} redirectTo={redirectTo} />
              ))}
            </div>
          )}
        </section>
      ) : (
        <section aria-labelledby="mine-heading" className="mt-6">
          <h2 id="mine-heading" className="sr-only">
            My Orders
          </h2>
          {!approved ? (
            <Empty
              title="Affiliate Approval Required"
              body="You need to be an approved affiliate to claim service orders."
            />
          ) : data.mine.length === 0 ? (
            <Empty title="No claimed orders" body="Claim a job from Available Orders." />
          ) : (
            <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
              {data.mine.map((order) => (
                <OrderCard key={order.id} order={order} redirectTo={redirectTo} />
              ))}
            </div>
          )}
        </section>
      )}
    </div>
  );
}

function FilterSelect(props: {
  name: string;
  label: string;
  value: string | undefined;
  options: { value: string; label: string }[];
}) {
  return (
    <div>
      <label htmlFor={`filter-${props.name}`} className={labelClass}>
        {props.label}
      </label>
      <select
        id={`filter-${props.name}`}
        name={props.name}
        defaultValue={props.value ?? "all"}
        className={inputClass}
      >
        {props.options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

function Empty({ title, body }: { title: string; body: string }) {
  return (
    <div className="mt-4 rounded-xl border border-dashed border-slate-300 bg-white p-10 text-center">
      <p className="text-lg font-semibold">{title}</p>
      <p className="mt-1 text-sm text-slate-600">{body}</p>
    </div>
  );
}

function Skeletons() {
  return (
    <div className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-busy="true">
      {[0, 1, 2].map((i) => (
        <div key={i} className="h-64 animate-pulse rounded-xl bg-slate-200" />
      ))}
    </div>
  );
}
