// A real OpenID Connect issuer (oidc-provider) for development and tests: its sign-in page is a
// plain HTML form that accepts any e-mail, and consent for our own client is implicit. It runs on
// 127.0.0.1 (the app on localhost) because cookies ignore ports.
import { createHash, generateKeyPairSync, randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { interactionPolicy, Provider, type KoaContext } from "oidc-provider";
import {
  LOCAL_OIDC_CLIENT_ID,
  LOCAL_OIDC_CLIENT_SECRET,
  LOCAL_OIDC_HOST,
} from "../app/services/accounts/local-oidc";

type Account = { sub: string; email: string; firstName?: string; lastName?: string };

export type LocalIssuer = { issuer: string; port: number; stop: () => Promise<void> };

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const escape = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function loginPage(
  uid: string,
  values: { email?: string; firstName?: string; lastName?: string },
  error?: string,
) {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign in · BidYard local sign-in</title>
<style>
body{font-family:system-ui,sans-serif;background:#eff6ff;margin:0;padding:24px}
main{max-width:380px;margin:40px auto;background:#fff;border-radius:12px;padding:24px;box-shadow:0 4px 16px rgba(0,0,0,.08)}
label{display:block;font-weight:600;margin-top:12px}
input{box-sizing:border-box;width:100%;padding:10px;margin-top:4px;border:1px solid #cbd5e1;border-radius:6px;font-size:16px}
button{margin-top:20px;width:100%;padding:12px;background:#1e40af;color:#fff;border:0;border-radius:6px;font-weight:700;font-size:16px}
.error{color:#b91c1c}.note{color:#475569;font-size:14px}
</style>
</head>
<body>
<main>
<h1>Sign in to BidYard</h1>
<p class="note">Local development sign-in: any e-mail address works, no password.</p>
${error ? `<p class="error" role="alert">${escape(error)}</p>` : ""}
<form method="post" action="/interaction/${escape(uid)}">
<label for="email">E-mail</label>
<input id="email" name="email" type="email" autocomplete="email" value="${escape(values.email ?? "")}">
<label for="firstName">First name (optional)</label>
<input id="firstName" name="firstName" autocomplete="given-name" value="${escape(values.firstName ?? "")}">
<label for="lastName">Last name (optional)</label>
<input id="lastName" name="lastName" autocomplete="family-name" value="${escape(values.lastName ?? "")}">
<button type="submit">Sign in</button>
</form>
</main>
</body>
</html>`;
}

async function readForm(req: http.IncomingMessage) {
  let body = "";
  for await (const chunk of req) {
    body += chunk;
    if (body.length > 10_000) break;
  }
  return new URLSearchParams(body);
}

/** Starts the issuer on `port` (0 = any free port) for the given app callback URLs. */
export async function startLocalIssuer({
  port = 0,
  redirectUris,
}: {
  port?: number;
  redirectUris: string[];
}): Promise<LocalIssuer> {
  if (process.env.NODE_ENV === "production") {
    throw new Error("The local sign-in issuer never runs in production; set OIDC_ISSUER");
  }
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(port, LOCAL_OIDC_HOST, resolve));
  const actualPort = (server.address() as AddressInfo).port;
  const issuer = `http://${LOCAL_OIDC_HOST}:${actualPort}`;

  const accounts = new Map<string, Account>();
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const jwk = { ...privateKey.export({ format: "jwk" }), use: "sig", alg: "RS256", kid: "local" };

  // Always ask who is signing in (no silent re-use of the issuer's session), so switching demo
  // accounts after a logout works.
  const policy = interactionPolicy.base();
  policy
    .get("login")
    .checks.add(
      new interactionPolicy.Check(
        "local_always_login",
        "the local issuer asks every time",
        (ctx) =>
          ctx.oidc.result?.login
            ? interactionPolicy.Check.NO_NEED_TO_PROMPT
            : interactionPolicy.Check.REQUEST_PROMPT,
      ),
    );

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: LOCAL_OIDC_CLIENT_ID,
        client_secret: LOCAL_OIDC_CLIENT_SECRET,
        redirect_uris: redirectUris,
        grant_types: ["authorization_code"],
        response_types: ["code"],
      },
    ],
    jwks: { keys: [jwk] },
    cookies: { keys: [randomBytes(32).toString("hex")] },
    claims: {
      openid: ["sub"],
      email: ["email", "email_verified"],
      profile: ["given_name", "family_name", "name"],
    },
    features: { devInteractions: { enabled: false } },
    pkce: { required: () => true },
    interactions: {
      policy,
      url: (_ctx: KoaContext, interaction: { uid: string }) => `/interaction/${interaction.uid}`,
    },
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 60,
      IdToken: 600,
      Interaction: 900,
      Session: 3600,
      Grant: 3600,
    },
    async findAccount(_ctx: KoaContext, sub: string) {
      const account = [...accounts.values()].find((a) => a.sub === sub);
      if (!account) return undefined;
      return {
        accountId: sub,
        async claims() {
          const name = [account.firstName, account.lastName].filter(Boolean).join(" ");
          return {
            sub,
            email: account.email,
            email_verified: true,
            ...(account.firstName ? { given_name: account.firstName } : {}),
            ...(account.lastName ? { family_name: account.lastName } : {}),
            ...(name ? { name } : {}),
          };
        },
      };
    },
    // Consent for our own client is implicit: grant the standard scopes once the person signed in.
    async loadExistingGrant(ctx: KoaContext) {
      const accountId = ctx.oidc.session.accountId;
      if (!accountId) return undefined;
      const grantId =
        ctx.oidc.result?.consent?.grantId ?? ctx.oidc.session.grantIdFor(ctx.oidc.client.clientId);
      if (grantId) {
        const existing = await ctx.oidc.provider.Grant.find(grantId);
        if (existing && existing.accountId === accountId) return existing;
      }
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client.clientId, accountId });
      grant.addOIDCScope("openid email profile");
      await grant.save();
      return grant;
    },
    async renderError(ctx: KoaContext, out: Record<string, string>) {
      ctx.type = "html";
      ctx.body = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Sign-in error</title></head><body><main><h1>Sign-in error</h1>${Object.entries(
        out,
      )
        .map(([key, value]) => `<p><strong>${escape(key)}</strong>: ${escape(String(value))}</p>`)
        .join("")}<p>Go back to BidYard and sign in again.</p></main></body></html>`;
    },
  });

  provider.use(async (ctx, next) => {
    const match = /^\/interaction\/([\w-]+)$/.exec(ctx.path);
    if (!match) return next();
    let details;
    try {
      details = await provider.interactionDetails(ctx.req, ctx.res);
    } catch {
      ctx.status = 400;
      ctx.type = "html";
      ctx.body = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Sign-in expired</title></head><body><main><h1>This sign-in request has expired</h1><p>Go back to BidYard and sign in again.</p></main></body></html>`;
      return;
    }
    if (ctx.method === "GET") {
      ctx.type = "html";
      ctx.body = loginPage(details.uid, { email: details.params.login_hint });
      return;
    }
    if (ctx.method !== "POST") {
      ctx.status = 405;
      return;
    }
    const form = await readForm(ctx.req);
    const email = (form.get("email") ?? "").trim().toLowerCase();
    const firstName = (form.get("firstName") ?? "").trim().slice(0, 100) || undefined;
    const lastName = (form.get("lastName") ?? "").trim().slice(0, 100) || undefined;
    if (!EMAIL.test(email) || email.length > 254) {
      ctx.status = 400;
      ctx.type = "html";
      ctx.body = loginPage(
        details.uid,
        { email, firstName, lastName },
        "Enter a valid e-mail address.",
      );
      return;
    }
    const previous = accounts.get(email);
    const account: Account = {
      sub:
        previous?.sub ?? `local-${createHash("sha256").update(email).digest("hex").slice(0, 24)}`,
      email,
      firstName: firstName ?? previous?.firstName,
      lastName: lastName ?? previous?.lastName,
    };
    accounts.set(email, account);
    ctx.respond = false;
    await provider.interactionFinished(
      ctx.req,
      ctx.res,
      { login: { accountId: account.sub } },
      { mergeWithLastSubmission: false },
    );
  });

  server.on("request", provider.callback());

  return {
    issuer,
    port: actualPort,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
