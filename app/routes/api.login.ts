import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { SignInError, startSignIn } from "~/modules/accounts/auth.server";
import { clientAddress, consumeRateLimit } from "~/platform/rate-limit.server";
import { getUser } from "~/modules/accounts/session.server";
import { safeRedirect } from "~/http/http.server";
import { loginQuerySchema } from "~/modules/accounts/schemas";

// Sign In and Register both arrive here (always a browser navigation, never a fetch).
export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const query = loginQuerySchema.safeParse(Object.fromEntries(url.searchParams));
  const params = query.success ? query.data : {};
  const returnTo = safeRedirect(params.returnTo, "/");
  if (await getUser(request)) return redirect(returnTo);
  await consumeRateLimit(request, "signIn", clientAddress(request));
  try {
    return await startSignIn(request, {
      returnTo,
      accountType: params.accountType ?? "buyer",
      loginHint: params.login_hint || undefined,
    });
  } catch (error) {
    if (error instanceof SignInError) {
      throw new Response(error.message, { status: error.status });
    }
    throw error;
  }
}
