import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { RegistrationForm } from "~/components/registration-dialog";
import { SignInError, startSignIn } from "~/services/accounts/auth.server";
import { clientAddress, consumeRateLimit } from "~/platform/rate-limit.server";
import { getUser } from "~/services/accounts/session.server";
import { safeRedirect } from "~/http/http.server";
import {
  REGISTRATION_MARKER,
  loginQuerySchema,
  registrationErrors,
  registrationSentSchema,
} from "~/services/accounts/schemas";

export const meta: MetaFunction = () => [{ title: "Create your account · BidYard" }];

// Sign In and Register both arrive here (always a browser navigation, never a fetch). A
// registration (`from=register`) is checked first: a bad one gets this page back, 400, with the
// form's messages; a good one signs in with the names kept for the new account.
export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const query = loginQuerySchema.safeParse(Object.fromEntries(url.searchParams));
  const params = query.success ? query.data : {};
  const returnTo = safeRedirect(params.returnTo, "/");
  if (await getUser(request)) return redirect(returnTo);

  let names: { firstName: string; lastName: string } | undefined;
  if (url.searchParams.get(REGISTRATION_MARKER.name) === REGISTRATION_MARKER.value) {
    const sent = Object.fromEntries(url.searchParams);
    const registration = registrationSentSchema.safeParse(sent);
    if (!registration.success) {
      const text = (key: string) => (typeof sent[key] === "string" ? sent[key].slice(0, 254) : "");
      return data(
        {
          errors: registrationErrors(registration.error),
          values: {
            accountType: params.accountType ?? "buyer",
            firstName: text("firstName"),
            lastName: text("lastName"),
            login_hint: text("login_hint"),
          },
        },
        { status: 400, headers: { "Cache-Control": "no-store" } },
      );
    }
    names = { firstName: registration.data.firstName, lastName: registration.data.lastName };
  }

  await consumeRateLimit(request, "signIn", clientAddress(request));
  try {
    return await startSignIn(request, {
      returnTo,
      accountType: params.accountType ?? "buyer",
      loginHint: params.login_hint || undefined,
      ...names,
    });
  } catch (error) {
    if (error instanceof SignInError) {
      throw new Response(error.message, { status: error.status });
    }
    throw error;
  }
}

/** Only a registration the server refused renders here (everything else redirects). */
export default function RegistrationRefused() {
  const { errors, values } = useLoaderData<typeof loader>();
  return (
    <section
      aria-labelledby="register-page-title"
      className="mx-auto my-6 w-full max-w-lg rounded-xl border border-slate-200 bg-white p-6 shadow-lg"
    >
      <h1 id="register-page-title" className="text-xl font-bold">
        Create your account
      </h1>
      <div className="mt-4">
        <RegistrationForm errors={errors} values={values} />
      </div>
    </section>
  );
}
