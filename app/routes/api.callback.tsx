import type { LoaderFunctionArgs } from "@remix-run/node";
import { RouteErrorBoundary } from "~/components/error-page";
import { userForIdentity } from "~/services/accounts/accounts.server";
import { SignInError, clearSignInCookies, finishSignIn } from "~/services/accounts/auth.server";
import { createUserSession, destroyUserSession } from "~/services/accounts/session.server";
import { redirectWithToast } from "~/http/toast.server";
import { flagCookie } from "~/http/cookies.server";
import { errorBoundaryHeaders, safeRedirect } from "~/http/http.server";
import { SIGNED_IN_MARKER } from "~/utils/shell";
import { guardResourceLoader } from "~/http/route-guards.server";

// A 429's Retry-After survives the error page.
export const headers = errorBoundaryHeaders;

export const loader = (args: LoaderFunctionArgs) => guardResourceLoader(args, load);

// The issuer sends the browser back here with ?code&state.
async function load({ request }: LoaderFunctionArgs) {
  const clear = await clearSignInCookies(request);
  try {
    const { identity, intent } = await finishSignIn(request);
    const { user, isNew } = await userForIdentity(identity, intent.accountType, request, intent);
    await destroyUserSession(request); // never keep a session id across sign-ins
    const headers = new Headers({ "Cache-Control": "no-store" });
    for (const cookie of clear) headers.append("Set-Cookie", cookie);
    headers.append("Set-Cookie", await createUserSession(user.id));
    // Read (and cleared) by the root loader: the onboarding dialog may open once.
    headers.append("Set-Cookie", flagCookie(SIGNED_IN_MARKER, "1", 120));
    const to =
      isNew && intent.accountType === "affiliate"
        ? "/affiliate-registration"
        : safeRedirect(intent.returnTo, "/");
    const name = user.firstName || user.email;
    return redirectWithToast(
      to,
      isNew
        ? {
            title: "Welcome to BidYard!",
            description: `Signed in as ${user.email}.`,
            type: "success",
          }
        : { title: `Welcome back, ${name}!`, type: "success" },
      { headers },
    );
  } catch (error) {
    if (!(error instanceof SignInError)) throw error;
    const headers = new Headers({ "Cache-Control": "no-store" });
    for (const cookie of clear) headers.append("Set-Cookie", cookie);
    throw new Response(error.message, { status: error.status, headers });
  }
}

export const ErrorBoundary = RouteErrorBoundary;
