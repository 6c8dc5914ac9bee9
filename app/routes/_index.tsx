import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Dashboard } from "~/components/dashboard";
import { LandingPage } from "~/components/landing-page";
import { activeBidCount } from "~/services/auctions/bidding.server";
import { availableWith } from "~/services/auctions/buying-power.server";
import { readSession } from "~/services/accounts/session.server";
import { useOptionalUser } from "~/services/accounts/use-user";

// "/" is the dashboard for signed-in users and the landing page for visitors.
export async function loader({ request }: LoaderFunctionArgs) {
  const session = await readSession(request);
  if (!session) return { activeBids: 0, available: "0.00" };
  const { user, held } = session;
  // what the deposit holds came with the user, in the page's one session read
  const activeBids = await activeBidCount(user.id);
  return { activeBids, available: availableWith(user.deposit, held) };
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
