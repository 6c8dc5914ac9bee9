// The local OpenID issuer's sign-in form (scripts/local-issuer.ts), walked the way a browser does.
import type { LocalIssuer } from "../../scripts/local-issuer";

/**
 * From the app's redirect to the issuer (`authorizeUrl`, /api/login's Location) through the
 * issuer's form, filled with `person`, to the URL of the app's callback the issuer sends back to.
 * The issuer's own cookies are kept along the way; the app's are not sent.
 */
export async function throughIssuer(
  issuer: LocalIssuer,
  authorizeUrl: string,
  person: { email: string; firstName: string; lastName: string },
) {
  const jar = new Map<string, string>();
  const atIssuer = async (url: string, init: RequestInit = {}) => {
    const response = await fetch(url, {
      ...init,
      redirect: "manual",
      headers: {
        ...(init.headers as Record<string, string>),
        cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; "),
      },
    });
    for (const header of response.headers.getSetCookie()) {
      const [name, ...rest] = header.split(";")[0].split("=");
      jar.set(name, rest.join("="));
    }
    return response;
  };
  let response = await atIssuer(authorizeUrl);
  const interaction = new URL(response.headers.get("location")!, issuer.issuer).toString();
  await atIssuer(interaction);
  response = await atIssuer(interaction, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(person),
  });
  response = await atIssuer(new URL(response.headers.get("location")!, issuer.issuer).toString());
  return response.headers.get("location")!;
}
