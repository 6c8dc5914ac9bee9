import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Dashboard } from "~/components/dashboard";
import { LandingPage } from "~/components/landing-page";
import { activeBidCount } from "~/services/auctions/bidding.server";
import { availableBuyingPower } from "~/services/auctions/buying-power.server";
import { getUser } from "~/services/accounts/session.server";
import { useOptionalUser } from "~/services/accounts/use-user";

// "/" is the dashboard for signed-in users and the landing page for visitors.
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getUser(request);
  if (!user) return { activeBids: 0, available: "0.00" };
  const [activeBids, available] = await Promise.all([
    activeBidCount(user.id),
    availableBuyingPower(user),
  ]);
  return { activeBids, available };
}

export default function Index() {
  const user = useOptionalUser();
  const { activeBids, available } = useLoaderData<typeof loader>();
  return user ? (
    <Dashboard user={user} activeBids={activeBids} available={available} />
  ) : (
    <LandingPage />
  );
}
