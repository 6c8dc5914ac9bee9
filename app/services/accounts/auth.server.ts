// Sign-in through OpenID Connect: authorization code + PKCE with remix-auth-oauth2, userinfo
// fetched here (the library does not), the issuer's discovery document read once.
import { createCookie } from "@remix-run/node";
import * as z from "zod";
import { env } from "~/platform/env.server";
import {
  LOCAL_OIDC_CLIENT_ID,
  LOCAL_OIDC_CLIENT_SECRET,
  LOCAL_OIDC_HOST,
} from "~/services/accounts/local-oidc";
import { cleanText } from "~/utils/clean-text";

export type Identity = {
  subject: string;
  email: string;
  emailVerified: boolean;
  firstName: string | null;
  lastName: string | null;
};

/** A sign-in that cannot finish for a reason the person should read (answered with 400). */
export class SignInError extends Error {
  constructor(
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

const STATE_COOKIE = "oauth2";
const CALLBACK_PATH = "/api/callback";

function settings() {
  const e = env();
  if (e.OIDC_ISSUER) {
    return {
      issuer: e.OIDC_ISSUER.replace(/\/$/, ""),
      clientId: e.OIDC_CLIENT_ID ?? "",
      clientSecret: e.OIDC_CLIENT_SECRET ?? "",
    };
  }
  return {
    issuer: `http://${LOCAL_OIDC_HOST}:${e.LOCAL_OIDC_PORT}`,
    clientId: LOCAL_OIDC_CLIENT_ID,
    clientSecret: LOCAL_OIDC_CLIENT_SECRET,
  };
}

const discoverySchema = z.object({
  issuer: z.string(),
  authorization_endpoint: z.string().url(),
  token_endpoint: z.string().url(),
  userinfo_endpoint: z.string().url(),
});
type Discovery = z.infer<typeof discoverySchema>;

const discoveries = new Map<string, Promise<Discovery>>();

/** The issuer's discovery document, fetched once per issuer (again only after a failure). */
function discover(issuer: string) {
  let pending = discoveries.get(issuer);
  if (!pending) {
    pending = (async () => {
      const response = await fetch(`${issuer}/.well-known/openid-configuration`, {
        headers: { Accept: "application/json" },
        signal: AbortSignal.timeout(5_000),
      });
      if (!response.ok) throw new Error(`discovery answered ${response.status}`);
      return discoverySchema.parse(await response.json());
    })();
    discoveries.set(issuer, pending);
    pending.catch(() => discoveries.delete(issuer));
  }
  return pending;
}

const userinfoSchema = z.object({
  sub: z.string().min(1).max(255),
  email: z.string().optional(),
  email_verified: z.union([z.boolean(), z.enum(["true", "false"])]).optional(),
  given_name: z.string().optional(),
  family_name: z.string().optional(),
});

const emailSchema = z.email().max(254);

function decodeJwtSubject(jwt: string): string | null {
  try {
    const payload = JSON.parse(Buffer.from(jwt.split(".")[1], "base64url").toString("utf8"));
    return typeof payload.sub === "string" ? payload.sub : null;
  } catch {
    return null;
  }
}

// a name from the issuer or the sign-in form is one line, without control characters
const cleanName = (value: string | undefined) =>
  (value === undefined ? "" : cleanText(value)).trim().slice(0, 100) || null;

// the registration's phone number, as the form checked it (registrationSchema)
const cleanPhone = (value: string | undefined | null) =>
  (value == null ? "" : cleanText(value)).trim().slice(0, 40) || null;

async function fetchIdentity(discovery: Discovery, accessToken: string, idToken: string | null) {
  const response = await fetch(discovery.userinfo_endpoint, {
    headers: { Authorization: `Bearer ${accessToken}`, Accept: "application/json" },
    signal: AbortSignal.timeout(5_000),
  });
  if (!response.ok) {
    throw new SignInError(
      "Your sign-in provider did not share your profile. Please try again.",
      502,
    );
  }
  const parsed = userinfoSchema.safeParse(await response.json());
  if (!parsed.success) {
    throw new SignInError("Your sign-in provider sent a profile we could not read.", 502);
  }
  const claims = parsed.data;
  // OIDC Core 5.3.2: the userinfo subject must be the ID token's subject.
  if (idToken && decodeJwtSubject(idToken) !== claims.sub) {
    throw new SignInError("Your sign-in could not be verified. Please try again.");
  }
  const email = emailSchema.safeParse(claims.email?.trim().toLowerCase());
  if (!email.success) {
    throw new SignInError("Your sign-in provider did not share a valid e-mail address.");
  }
  return {
    subject: claims.sub,
    email: email.data,
    emailVerified: claims.email_verified === true || claims.email_verified === "true",
    firstName: cleanName(claims.given_name),
    lastName: cleanName(claims.family_name),
  } satisfies Identity;
}

/**
 * The sign-in libraries, loaded with the first sign-in rather than by every server process (they
 * are a few MB a process, and most requests are not sign-ins; docs/decisions/1913).
 */
let oidcLibraries: ReturnType<typeof loadOidcLibraries> | null = null;
async function loadOidcLibraries() {
  const [{ Authenticator }, { OAuth2RequestError, OAuth2Strategy }] = await Promise.all([
    import("remix-auth"),
    import("remix-auth-oauth2"),
  ]);
  class OidcStrategy extends OAuth2Strategy<Identity> {
    name = "oidc";
    protected authorizationParams(params: URLSearchParams, request: Request) {
      const hint = new URL(request.url).searchParams.get("login_hint")?.trim();
      if (hint) params.set("login_hint", hint.slice(0, 254));
      return params;
    }
  }
  return { Authenticator, OAuth2RequestError, OidcStrategy };
}
function oidc() {
  oidcLibraries ??= loadOidcLibraries().catch((error) => {
    oidcLibraries = null;
    throw error;
  });
  return oidcLibraries;
}

async function authenticator() {
  const { Authenticator, OidcStrategy } = await oidc();
  const { issuer, clientId, clientSecret } = settings();
  let discovery: Discovery;
  try {
    discovery = await discover(issuer);
  } catch {
    throw new SignInError("Sign-in is unavailable right now. Please try again in a moment.", 503);
  }
  const secure = env().isProduction;
  const strategy = new OidcStrategy(
    {
      cookie: {
        name: STATE_COOKIE,
        path: CALLBACK_PATH,
        httpOnly: true,
        sameSite: "Lax",
        maxAge: 60 * 10,
        ...(secure ? { secure: true as const } : {}),
      },
      clientId,
      clientSecret,
      authorizationEndpoint: discovery.authorization_endpoint,
      tokenEndpoint: discovery.token_endpoint,
      redirectURI: `${new URL(env().APP_URL).origin}${CALLBACK_PATH}`,
      scopes: ["openid", "email", "profile"],
    },
    async ({ tokens }) => {
      let idToken: string | null = null;
      try {
        idToken = tokens.idToken();
      } catch {
        idToken = null;
      }
      return fetchIdentity(discovery, tokens.accessToken(), idToken);
    },
  );
  return new Authenticator<Identity>().use(strategy, "oidc");
}

export type LoginIntent = {
  state: string;
  returnTo: string;
  accountType: "buyer" | "affiliate";
  /** The names typed in the registration form, for an account this sign-in creates. */
  firstName?: string | null;
  lastName?: string | null;
  /** The phone number typed in the registration form (docs/decisions/3304). */
  phone?: string | null;
};

/** Remembers where to go after the issuer sends the person back, tied to the flow's state. */
const loginIntentCookie = createCookie("__login_intent", {
  httpOnly: true,
  sameSite: "lax",
  path: CALLBACK_PATH,
  maxAge: 60 * 10,
  secure: env().isProduction,
  secrets: env().SESSION_SECRETS,
});

/**
 * Starts the authorization-code flow: the redirect to the issuer with the state/PKCE cookie and
 * the login intent (returnTo, account type, the registration's names) cookie.
 */
export async function startSignIn(
  request: Request,
  intent: {
    returnTo: string;
    accountType: "buyer" | "affiliate";
    loginHint?: string;
    firstName?: string;
    lastName?: string;
    phone?: string;
  },
): Promise<Response> {
  const auth = await authenticator();
  const url = new URL("/api/login", request.url);
  if (intent.loginHint) url.searchParams.set("login_hint", intent.loginHint);
  try {
    await auth.authenticate("oidc", new Request(url, { headers: request.headers }));
  } catch (thrown) {
    if (!(thrown instanceof Response)) throw thrown;
    const location = thrown.headers.get("Location");
    const state = location ? new URL(location).searchParams.get("state") : null;
    const headers = new Headers(thrown.headers);
    headers.append(
      "Set-Cookie",
      await loginIntentCookie.serialize({
        state: state ?? "",
        returnTo: intent.returnTo,
        accountType: intent.accountType,
        firstName: cleanName(intent.firstName),
        lastName: cleanName(intent.lastName),
        phone: cleanPhone(intent.phone),
      } satisfies LoginIntent),
    );
    headers.set("Cache-Control", "no-store");
    return new Response(null, { status: 302, headers });
  }
  throw new Error("the sign-in strategy did not redirect to the issuer");
}

/** Set-Cookie values that clear the state/PKCE cookies and the login intent. */
export async function clearSignInCookies(request: Request): Promise<string[]> {
  const names = (request.headers.get("cookie") ?? "")
    .split(";")
    .map((part) => part.split("=")[0].trim())
    .filter((name) => name.startsWith(`${STATE_COOKIE}:`));
  const secure = env().isProduction ? "; Secure" : "";
  return [
    ...names.map(
      (name) =>
        `${name}=; Path=${CALLBACK_PATH}; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax${secure}`,
    ),
    await loginIntentCookie.serialize("", { maxAge: 0, expires: new Date(0) }),
  ];
}

/**
 * Finishes the flow: checks state against the cookie, exchanges the code (with the PKCE
 * verifier), fetches userinfo. Returns the identity and the login intent for this state.
 */
export async function finishSignIn(
  request: Request,
): Promise<{ identity: Identity; intent: Omit<LoginIntent, "state"> }> {
  const url = new URL(request.url);
  if (!url.searchParams.get("state")) {
    throw new SignInError("This sign-in link is incomplete. Please sign in again.");
  }
  const auth = await authenticator();
  const { OAuth2RequestError } = await oidc();
  let identity: Identity;
  try {
    identity = await auth.authenticate("oidc", request);
  } catch (error) {
    if (error instanceof SignInError) throw error;
    if (error instanceof OAuth2RequestError) {
      if (error.code === "invalid_grant") {
        throw new SignInError(
          "This sign-in code has already been used or has expired. Please sign in again.",
        );
      }
      if (error.code === "access_denied") {
        throw new SignInError("Sign-in was cancelled. You can try again whenever you like.");
      }
      throw new SignInError(`Your sign-in provider refused the sign-in (${error.code}).`);
    }
    if (error instanceof RangeError || error instanceof ReferenceError) {
      throw new SignInError(
        "This sign-in could not be verified: it was started in another browser or has expired. Please sign in again.",
      );
    }
    throw new SignInError("Sign-in failed. Please try again in a moment.", 502);
  }
  const stored = (await loginIntentCookie.parse(
    request.headers.get("cookie"),
  )) as LoginIntent | null;
  const matches = stored && stored.state === url.searchParams.get("state");
  return {
    identity,
    intent: {
      returnTo: matches ? stored.returnTo : "/",
      accountType: matches && stored.accountType === "affiliate" ? "affiliate" : "buyer",
      firstName:
        matches && typeof stored.firstName === "string" ? cleanName(stored.firstName) : null,
      lastName: matches && typeof stored.lastName === "string" ? cleanName(stored.lastName) : null,
      phone: matches && typeof stored.phone === "string" ? cleanPhone(stored.phone) : null,
    },
  };
}
