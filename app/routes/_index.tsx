import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Dashboard } from "~/components/dashboard";
import { LandingPage } from "~/components/landing-page";
import { activeBidCount } from "~/modules/auctions/bidding.server";
import { getUser } from "~/modules/accounts/session.server";
import { useOptionalUser } from "~/modules/accounts/use-user";

// "/" is the dashboard for signed-in users and the landing page for visitors.
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getUser(request);
  return { activeBids: user ? await activeBidCount(user.id) : 0 };
}

export default function Index() {
  const user = useOptionalUser();
  const { activeBids } = useLoaderData<typeof loader>();
  return user ? <Dashboard user={user} activeBids={activeBids} /> : <LandingPage />;
}
