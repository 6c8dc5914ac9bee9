// Signs people in through the real flow over HTTP, as a browser would: /api/login → the issuer's
// authorization endpoint → its sign-in form → /api/callback → the session cookie.

type Jar = Map<string, Map<string, string>>;

function remember(jar: Jar, url: URL, response: Response) {
  const cookies = jar.get(url.host) ?? new Map<string, string>();
  for (const line of response.headers.getSetCookie()) {
    const [pair] = line.split(";");
    const at = pair.indexOf("=");
    const name = pair.slice(0, at).trim();
    const value = pair.slice(at + 1).trim();
    if (/max-age=0|expires=thu, 01 jan 1970/i.test(line) || value === "") cookies.delete(name);
    else cookies.set(name, value);
  }
  jar.set(url.host, cookies);
}

function cookieHeader(jar: Jar, url: URL) {
  return [...(jar.get(url.host) ?? new Map()).entries()].map(([k, v]) => `${k}=${v}`).join("; ");
}

/** Returns the `__session=…` cookie for `email` after a full authorization-code round trip. */
export async function signInThroughIssuer(appUrl: string, email: string, clientAddress: string) {
  const jar: Jar = new Map();
  const app = new URL(appUrl);
  let url = new URL("/api/login?returnTo=%2F", appUrl);
  let method = "GET";
  let body: string | undefined;
  for (let hop = 0; hop < 20; hop += 1) {
    const headers: Record<string, string> = { cookie: cookieHeader(jar, url) };
    if (url.host === app.host) headers["fly-client-ip"] = clientAddress;
    if (body) headers["content-type"] = "application/x-www-form-urlencoded";
    const response = await fetch(url, { method, headers, body, redirect: "manual" });
    remember(jar, url, response);
    const location = response.headers.get("location");
    if (response.status >= 300 && response.status < 400 && location) {
      url = new URL(location, url);
      method = "GET";
      body = undefined;
      continue;
    }
    const text = await response.text();
    const form = /<form method="post" action="(\/interaction\/[\w-]+)"/.exec(text);
    if (response.status === 200 && form && url.host !== app.host) {
      url = new URL(form[1], url);
      method = "POST";
      body = new URLSearchParams({ email, firstName: "Bench" }).toString();
      continue;
    }
    if (url.host === app.host && jar.get(app.host)?.has("__session")) break;
    throw new Error(`sign-in for ${email} stopped at ${url.pathname}: ${response.status}`);
  }
  const session = jar.get(app.host)?.get("__session");
  if (!session) throw new Error(`sign-in for ${email} set no session`);
  return `__session=${session}`;
}

/** Signs `count` people in, `parallel` at a time; returns their cookies in order. */
export async function signInMany(
  appUrl: string,
  emails: string[],
  parallel = 8,
): Promise<string[]> {
  const cookies: string[] = new Array(emails.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < emails.length) {
        const i = next++;
        cookies[i] = await signInThroughIssuer(appUrl, emails[i], `10.77.${i >> 8}.${i & 255}`);
      }
    }),
  );
  return cookies;
}
