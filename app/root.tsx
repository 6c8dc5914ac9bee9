import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { errorBoundaryHeaders } from "~/http/http.server";
import { data } from "@remix-run/node";
import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  isRouteErrorResponse,
  useLoaderData,
  useRouteError,
  useRouteLoaderData,
} from "@remix-run/react";
import { useEffect, type ReactNode } from "react";
import { BetaBanner } from "~/components/beta-banner";
import { EarlyAccessDialog } from "~/components/early-access-dialog";
import { ErrorPage, errorPageProps } from "~/components/error-page";
import { MaintenanceBanner } from "~/components/maintenance-banner";
import { OnboardingDialog, OnboardingWithoutScripts } from "~/components/onboarding-dialog";
import { RegistrationDialog } from "~/components/registration-dialog";
import { ShellDialogsProvider } from "~/components/shell-dialogs";
import { SiteFooter } from "~/components/site-footer";
import { SiteHeader, SkipLink } from "~/components/site-header";
import { ToastOutlet, ToastProvider } from "~/components/toaster";
import { readSession } from "~/services/accounts/session.server";
import { getSettings } from "~/services/admin/settings.server";
import { MaintenancePage } from "~/components/maintenance-page";
import { isMaintenanceNotice } from "~/utils/maintenance";
import { readToast } from "~/http/toast.server";
import { toPublicUser } from "~/services/accounts/users.server";
import { DEFAULT_TIME_ZONE } from "~/services/accounts/time-zones";
import { useNonce } from "~/utils/nonce";
import { useHydrated } from "~/utils/use-hydrated";
import { flagCookie, hasFlagCookie } from "~/http/cookies.server";
import { BETA_BANNER_CLOSED, ONBOARDING_COMPLETED, SIGNED_IN_MARKER } from "~/utils/shell";
import stylesheet from "~/tailwind.css";
import { guardLoader } from "~/http/route-guards.server";

// A 429's Retry-After survives the error page.
export const headers = errorBoundaryHeaders;

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export const meta: MetaFunction = ({ error }) => [
  { title: "BidYard · Used and salvage vehicle auctions" },
  // the maintenance page comes back by itself, scripts or not (docs/decisions/2852)
  ...(isRouteErrorResponse(error) && isMaintenanceNotice(error.data)
    ? [{ httpEquiv: "refresh", content: String(error.data.retryAfterSeconds) }]
    : []),
  {
    name: "description",
    content:
      "Bid live on Copart and IAAI lots, buy from the community marketplace, and ship or export your vehicle. No dealer licence needed.",
  },
];

export const loader = (args: LoaderFunctionArgs) => guardLoader(args, load);

async function load({ request }: LoaderFunctionArgs) {
  // the user and their unread count come in one statement (docs/decisions/2903); the settings
  // from this process's copy, at most a second old
  const session = await readSession(request);
  const user = session?.user ?? null;
  const unreadNotifications = session?.unreadNotifications ?? 0;
  const [{ toast, headers }, settings] = await Promise.all([readToast(request), getSettings()]);
  const betaBannerClosed = hasFlagCookie(request, BETA_BANNER_CLOSED, "true");
  // Set by the sign-in callback, read once here: the onboarding dialog may open after it.
  const justSignedIn = Boolean(user) && hasFlagCookie(request, SIGNED_IN_MARKER, "1");
  if (hasFlagCookie(request, SIGNED_IN_MARKER, "1")) {
    headers.append("Set-Cookie", flagCookie(SIGNED_IN_MARKER, "", 0));
  }
  return data(
    {
      user: user ? toPublicUser(user) : null,
      // times are written in the account's zone until the browser's own is known (record 1802)
      timeZone: user?.timeZone ?? DEFAULT_TIME_ZONE,
      toast,
      betaBannerClosed,
      // A closed banner's text is not sent at all.
      betaBanner: betaBannerClosed ? { enabled: false, text: "" } : settings.betaBanner,
      unreadNotifications,
      justSignedIn,
      onboardingCompleted: hasFlagCookie(request, ONBOARDING_COMPLETED, "true"),
      // Only admins get past the maintenance gate; they are told it is on.
      maintenanceNotice: user?.role === "admin" && settings.maintenanceMode,
    },
    { headers },
  );
}

/**
 * Marks the document (`<html data-hydrated>`) once React has hydrated it: by then every
 * useHydrated() in the page is true, so a click goes to the page's scripts, not to a plain link or
 * form. The router is "initialized" before that (a page with no client loaders starts so), which
 * is why end-to-end tests wait for this mark instead (tests/e2e/helpers.ts, ready).
 */
function HydrationMark() {
  const hydrated = useHydrated();
  useEffect(() => {
    if (hydrated) document.documentElement.dataset.hydrated = "true";
  }, [hydrated]);
  return null;
}

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  return (
    <html lang="en" className="h-full">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#1e3a8a" />
        {/* Before any module: zod then never probes for eval, which this CSP forbids (and reports). */}
        <script
          nonce={nonce}
          suppressHydrationWarning
          dangerouslySetInnerHTML={{ __html: "globalThis.__zod_globalConfig={jitless:true};" }}
        />
        <Meta />
        <Links />
      </head>
      <body className="flex min-h-full flex-col bg-slate-50 text-slate-900 antialiased">
        {children}
        <HydrationMark />
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

function Shell({ data, children }: { data: RootData | undefined; children: ReactNode }) {
  return (
    <ToastProvider serverToast={data?.toast ?? null} outlet>
      <ShellDialogsProvider>
        <SkipLink />
        {data?.maintenanceNotice ? <MaintenanceBanner /> : null}
        {data?.betaBanner.enabled === false ? null : (
          <BetaBanner
            closedOnServer={data?.betaBannerClosed ?? false}
            text={data?.betaBanner.text}
          />
        )}
        <SiteHeader
          user={data ? data.user : undefined}
          unreadNotifications={data?.unreadNotifications ?? 0}
        />
        <main id="main" className="flex-1">
          <ToastOutlet />
          <EarlyAccessDialog />
          {data?.user ? null : <RegistrationDialog />}
          {/* the buyer's tour is not for an admin, with JS or without (record 3551) */}
          {data?.user && data.user.role !== "admin" ? (
            <OnboardingWithoutScripts
              justSignedIn={data.justSignedIn}
              completed={data.onboardingCompleted}
            />
          ) : null}
          {children}
        </main>
        <SiteFooter />
        <OnboardingDialog
          signedIn={Boolean(data?.user) && data?.user?.role !== "admin"}
          justSignedIn={data?.justSignedIn ?? false}
          completed={data?.onboardingCompleted ?? false}
        />
      </ShellDialogsProvider>
    </ToastProvider>
  );
}

type RootData = ReturnType<typeof useLoaderData<typeof loader>>;

export default function App() {
  const data = useLoaderData<typeof loader>();
  return (
    <Shell data={data}>
      <Outlet />
    </Shell>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const data = useRouteLoaderData<typeof loader>("root");
  if (isRouteErrorResponse(error) && isMaintenanceNotice(error.data)) {
    return <MaintenancePage notice={error.data} />;
  }
  return (
    <Shell data={data}>
      <ErrorPage {...errorPageProps(error)} />
    </Shell>
  );
}
