// The registration form's check and the sign-in it starts, shared by /register (the form's own
// page, where it posts) and /api/login (an older GET registration link), docs/decisions/3520.
import { data } from "@remix-run/node";
import { SignInError, startSignIn } from "~/services/accounts/auth.server";
import { clientAddress, consumeRateLimit } from "~/platform/rate-limit.server";
import { registrationErrors, registrationSchema } from "~/services/accounts/schemas";

export type Registered = { firstName: string; lastName: string; phone: string };

/** Checks a registration: its values for the sign-in, or the 400 page with the form's messages. */
export function checkRegistration(
  sent: Record<string, unknown>,
  accountType: "buyer" | "affiliate",
) {
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

/** Starts the sign-in at the issuer (a redirect), with the names and phone of a registration. */
export async function signIn(
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
