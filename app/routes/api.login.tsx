import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { RegistrationForm } from "~/components/registration-dialog";
import { SignInError, startSignIn } from "~/services/accounts/auth.server";
import { clientAddress, consumeRateLimit } from "~/platform/rate-limit.server";
import { getUser } from "~/services/accounts/session.server";
import { requireSameOrigin, safeRedirect } from "~/http/http.server";
import {
  REGISTRATION_MARKER,
  loginQuerySchema,
  registrationErrors,
  registrationSchema,
} from "~/services/accounts/schemas";

export const meta: MetaFunction = () => [{ title: "Create your account · BidYard" }];

type Registered = { firstName: string; lastName: string; phone: string };

/** Checks a registration: its values for the sign-in, or the 400 page with the form's messages. */
function checkRegistration(sent: Record<string, unknown>, accountType: "buyer" | "affiliate") {
  const registration = registrationSchema.safeParse(sent);
  if (registration.success) {
    const { firstName, lastName, phone } = registration.data;
    return { registered: { firstName, lastName, phone } satisfies Registered };
  }
  const text = (key: string) => (typeof sent[key] === "string" ? sent[key].slice(0, 254) : "");
  return {
    refused: data(
      {
        errors: registrationErrors(registration.error),
        values: {
          accountType,
          firstName: text("firstName"),
          lastName: text("lastName"),
          login_hint: text("login_hint"),
          phone: text("phone"),
        },
      },
      { status: 400, headers: { "Cache-Control": "no-store" } },
    ),
  };
}

async function signIn(
  request: Request,
  params: { returnTo: string; accountType: "buyer" | "affiliate"; loginHint?: string },
  registered?: Registered,
) {
  await consumeRateLimit(request, "signIn", clientAddress(request));
  try {
    return await startSignIn(request, { ...params, ...registered });
  } catch (error) {
    if (error instanceof SignInError) {
      throw new Response(error.message, { status: error.status });
    }
    throw error;
  }
}

// Sign In arrives here as a GET (always a browser navigation, never a fetch). The registration
// form posts here (so the phone number never sits in a URL, docs/decisions/3304); an older GET
// registration (`from=register`) is still checked the same way. A bad one gets this page back,
// 400, with the form's messages; a good one signs in with the names and phone kept for the
// new account.
export async function loader({ request }: LoaderFunctionArgs) {
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

export async function action({ request }: ActionFunctionArgs) {
  requireSameOrigin(request);
  const sent = Object.fromEntries(await request.formData());
  const query = loginQuerySchema.safeParse(sent);
  const params = query.success ? query.data : {};
  const returnTo = safeRedirect(params.returnTo, "/");
  if (await getUser(request)) return redirect(returnTo);
  const accountType = params.accountType ?? "buyer";
  const checked = checkRegistration(sent, accountType);
  if (checked.refused) return checked.refused;
  return signIn(
    request,
    { returnTo, accountType, loginHint: params.login_hint || undefined },
    checked.registered,
  );
}

/** Only a registration the server refused renders here (everything else redirects). */
export default function RegistrationRefused() {
  const loaded = useLoaderData<typeof loader>();
  const posted = useActionData<typeof action>();
  const refused = posted ?? loaded;
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
