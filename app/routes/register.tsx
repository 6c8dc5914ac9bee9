import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { RegistrationForm } from "~/components/registration-dialog";
import { requireSameOrigin, safeRedirect } from "~/http/http.server";
import { getUser } from "~/services/accounts/session.server";
import { loginQuerySchema } from "~/services/accounts/schemas";
import { checkRegistration, signIn } from "~/services/accounts/registration.server";
import { guardAction, guardLoader } from "~/http/route-guards.server";
import { readForm } from "~/http/form-body.server";

export const meta: MetaFunction = () => [{ title: "Create your account · BidYard" }];

export const loader = (args: LoaderFunctionArgs) => guardLoader(args, load);

// The registration form's own page: its GET shows the form and never starts a sign-in, so a
// refused post (which Remix answers by running this loader too) renders the form with its
// messages, 400, with or without JavaScript (docs/decisions/3520).
async function load({ request }: LoaderFunctionArgs) {
  const query = loginQuerySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  const params = query.success ? query.data : {};
  if (await getUser(request)) return redirect(safeRedirect(params.returnTo, "/"));
  return { accountType: params.accountType ?? "buyer" };
}

export const action = (args: ActionFunctionArgs) => guardAction(args, act);

// The form posts here (so the phone number never sits in a URL, docs/decisions/3304): a bad one
// gets this page back, 400, with the form's messages; a good one signs in with the names and
// phone kept for the new account.
async function act({ request }: ActionFunctionArgs) {
  requireSameOrigin(request);
  const sent = Object.fromEntries(await readForm(request));
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

export default function RegisterPage() {
  const { accountType } = useLoaderData<typeof loader>();
  const refused = useActionData<typeof action>();
  const values = refused && "values" in refused ? refused.values : { accountType };
  const errors = refused && "errors" in refused ? refused.errors : undefined;
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
