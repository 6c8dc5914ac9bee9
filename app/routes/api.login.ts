import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { SignInError, startSignIn } from "~/services/auth.server";
import { clientAddress, consumeRateLimit } from "~/services/rate-limit.server";
import { getUser } from "~/services/session.server";
import { safeRedirect } from "~/utils/http.server";
import { loginQuerySchema } from "~/utils/schemas/auth";

// Sign In and Register both arrive here (a browser navigation, SPEC §2).
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
