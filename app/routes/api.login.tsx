import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { RegistrationForm } from "~/components/registration-dialog";
import { getUser } from "~/services/accounts/session.server";
import { safeRedirect } from "~/http/http.server";
import { REGISTRATION_MARKER, loginQuerySchema } from "~/services/accounts/schemas";
import {
  checkRegistration,
  signIn,
  type Registered,
} from "~/services/accounts/registration.server";
import { guardLoader } from "~/http/route-guards.server";

export const meta: MetaFunction = () => [{ title: "Create your account · BidYard" }];

export const loader = (args: LoaderFunctionArgs) => guardLoader(args, load);

// Sign In arrives here as a GET (always a browser navigation, never a fetch). An older GET
// registration (`from=register`) is still checked here: a bad one gets this page back, 400, with
// the form's messages; a good one signs in with the names kept for the new account. The
// registration form itself posts to /register: this route has no action, since Remix runs this
// loader (which starts a sign-in) after any action here that does not redirect, so a refused
// post would still sign in (docs/decisions/3520).
async function load({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const query = loginQuerySchema.safeParse(Object.fromEntries(url.searchParams));
  const params = query.success ? query.data : {};
  const returnTo = safeRedirect(params.returnTo, "/");
  if (await getUser(request)) return redirect(returnTo);
  const accountType = params.accountType ?? "buyer";
  let registered: Registered | undefined;
  if (url.searchParams.get(REGISTRATION_MARKER.name) === REGISTRATION_MARKER.value) {
    const checked = checkRegistration(Object.fromEntries(url.searchParams), accountType);
    if (checked.refused) return checked.refused;
    registered = checked.registered;
  }
  return signIn(
    request,
    { returnTo, accountType, loginHint: params.login_hint || undefined },
    registered,
  );
}

/** Only a registration the server refused renders here (everything else redirects). */
export default function RegistrationRefused() {
  const refused = useLoaderData<typeof loader>();
  if (!refused || !("errors" in refused)) return null;
  return (
    <section
      aria-labelledby="register-page-title"
      className="mx-auto my-6 w-full max-w-lg rounded-xl border border-slate-200 bg-white p-6 shadow-lg"
    >
      <h1 id="register-page-title" className="text-xl font-bold">
        Create your account
      </h1>
      <div className="mt-4">
        <RegistrationForm errors={refused.errors} values={refused.values} />
      </div>
    </section>
  );
}
