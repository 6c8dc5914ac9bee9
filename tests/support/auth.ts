// Integration tests sign people in through the same session service the sign-in callback uses.
import { createUserSession } from "~/services/accounts/session.server";
import { User } from "~/models/user.server";

let counter = 0;

export async function createTestUser(overrides: Partial<Parameters<typeof User.create>[0]> = {}) {
  counter += 1;
  return User.create({
    email: `person${counter}-${Date.now()}@bidyard.test`,
    firstName: "Test",
    lastName: `Person${counter}`,
    oidcSubject: null,
    ...overrides,
  });
}

/** A Cookie header value that signs `user` in. */
export async function sessionCookieFor(user: User) {
  const setCookie = await createUserSession(user.id);
  return setCookie.split(";")[0];
}

/** A Request as a same-origin browser would send it, signed in as `user` when given. */
export async function requestAs(
  user: User | null,
  path: string,
  init: RequestInit & { json?: unknown; form?: Record<string, string | string[]> } = {},
) {
  const headers = new Headers(init.headers);
  const url = `http://localhost:3000${path}`;
  if (user) headers.set("Cookie", await sessionCookieFor(user));
  let body = init.body;
  if (init.json !== undefined) {
    headers.set("Content-Type", "application/json");
    body = JSON.stringify(init.json);
  } else if (init.form) {
    const form = new URLSearchParams();
    for (const [key, value] of Object.entries(init.form)) {
      for (const v of Array.isArray(value) ? value : [value]) form.append(key, v);
    }
    headers.set("Content-Type", "application/x-www-form-urlencoded");
    body = form;
  }
  const method = init.method ?? (body ? "POST" : "GET");
  if (method !== "GET") headers.set("Origin", "http://localhost:3000");
  return new Request(url, { ...init, method, headers, body });
}
