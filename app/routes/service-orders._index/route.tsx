import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useLocation, useNavigation, useRevalidator } from "@remix-run/react";
import { useEffect } from "react";
import { OrderCard } from "~/components/affiliates/order-card";
import { Badge, primaryButton, secondaryButton } from "~/components/affiliates/ui";
import { getApplication } from "~/services/affiliates/applications.server";
import { requireUser } from "~/services/accounts/session.server";
import {
  countAffiliateOrders,
  listAffiliateOrders,
  listOpenOrders,
  hasPurchasesForService,
  toPublicOrder,
} from "~/services/affiliates/service-order-views.server";
import { parseServiceOrderFilters } from "~/services/affiliates/schemas";
import { ordersAvailableLabel } from "~/services/affiliates/rules";
import { providerStatus } from "~/services/affiliates/status";
import { OrderFilters } from "./filters";
import { Empty, OrderTabs, Skeletons } from "./parts";
import { guardLoader } from "~/http/route-guards.server";

export const meta: MetaFunction = () => [{ title: "Service Orders · BidYard" }];

export const REFRESH_MS = 10_000;

export const loader = (args: LoaderFunctionArgs) => guardLoader(args, load);

async function load({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const filters = parseServiceOrderFilters(new URL(request.url).searchParams);
  const application = await getApplication(user.id);
  // the one provider status every page shows (docs/decisions/2704)
  const provider = providerStatus(application);
  const approved = provider.canClaim;
  const [open, mine, myCount, hasPurchases] = await Promise.all([
    listOpenOrders(filters),
    approved && filters.tab === "mine" ? listAffiliateOrders(user.id) : Promise.resolve([]),
    approved ? countAffiliateOrders(user.id) : Promise.resolve(0),
    hasPurchasesForService(user.id),
  ]);
  return {
    filters,
    provider,
    approved,
    available: open.map((order) => toPublicOrder(order, user)),
    mine: mine.map((order) => toPublicOrder(order, user)),
    myCount,
    hasPurchases,
  };
}

export default function ServiceOrders() {
  const data = useLoaderData<typeof loader>();
  const { filters, approved } = data;
  const location = useLocation();
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  const redirectTo = `${location.pathname}${location.search}`;

  // With JS the list refreshes every 10 seconds, quietly, while the tab is visible (new jobs show
  // up without a reload; docs/decisions/0704-service-order-flow.md).
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
          {data.provider.label ? (
            <Badge
              tone={
                data.provider.state === "approved"
                  ? "green"
                  : data.provider.state === "pending"
                    ? "yellow"
                    : "red"
              }
            >
              {data.provider.label}
            </Badge>
          ) : null}
        </div>
        <div className="flex flex-wrap gap-2">
          {data.hasPurchases ? (
            <Link to="/service-orders/request" className={secondaryButton}>
              Ship or export a vehicle you won
            </Link>
          ) : null}
          {approved ? (
            <Link to="/service-orders/earnings" className={secondaryButton}>
              My earnings
            </Link>
          ) : null}
          {data.provider.state === "none" || data.provider.state === "rejected" ? (
            <Link to="/affiliate-registration" className={primaryButton}>
              Become a Service Provider
            </Link>
          ) : null}
        </div>
      </div>

      <OrderTabs tab={tab} approved={approved} myCount={data.myCount} href={tabHref} />

      {tab === "available" ? (
        <section aria-labelledby="available-heading" className="mt-6">
          <h2 id="available-heading" className="sr-only">
            Available Orders
          </h2>
          <OrderFilters filters={filters} formKey={location.search} />
          <p className="mt-4 text-sm text-slate-600" aria-live="polite">
            {ordersAvailableLabel(data.available.length)}
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
                <OrderCard
                  key={order.id}
                  order={order}
                  provider={data.provider}
                  redirectTo={redirectTo}
                />
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
                <OrderCard
                  key={order.id}
                  order={order}
                  provider={data.provider}
                  redirectTo={redirectTo}
                />
              ))}
            </div>
          )}
        </section>
      )}
    </div>
  );
}
