import { createCookie, redirect } from "@remix-run/node";
import { safeRedirect } from "./http.server";
import { env } from "~/platform/env.server";
import type { Toast } from "~/utils/toast";
import { readForm } from "./form-body.server";
import { SESSION_COOKIE } from "./cookie-names";

const THIRTY_DAYS = 60 * 60 * 24 * 30;

/** Holds only the opaque session id; the session itself lives in the database. */
export const sessionCookie = createCookie(SESSION_COOKIE, {
  httpOnly: true,
  sameSite: "lax",
  secure: env().isProduction,
  path: "/",
  maxAge: THIRTY_DAYS,
  secrets: env().SESSION_SECRETS,
});

/** A toast carried in the flash cookie: the same shape as every toast. */
export type FlashToast = Toast;

/** One message carried across a redirect, so a no-JS form post still shows its result. */
export const toastCookie = createCookie("__toast", {
  httpOnly: true,
  sameSite: "lax",
  secure: env().isProduction,
  path: "/",
  maxAge: 60,
  secrets: env().SESSION_SECRETS,
});

export const SESSION_MAX_AGE_SECONDS = THIRTY_DAYS;

/**
 * A small flag cookie for the server (the beta banner's close, the just-signed-in marker): the
 * same flags as the session cookie, so no script can read or plant-and-read it either.
 */
export function flagCookie(name: string, value: string, maxAgeSeconds: number) {
  const expires = maxAgeSeconds <= 0 ? "; Expires=Thu, 01 Jan 1970 00:00:00 GMT" : "";
  const secure = env().isProduction ? "; Secure" : "";
  return `${name}=${value}; Path=/; Max-Age=${Math.max(0, maxAgeSeconds)}${expires}; HttpOnly; SameSite=Lax${secure}`;
}

/** Whether the request carries `name=value`. */
export function hasFlagCookie(request: Request, name: string, value: string) {
  return (request.headers.get("cookie") ?? "")
    .split(";")
    .some((part) => part.trim() === `${name}=${value}`);
}

/**
 * Answers a shell flag's post (the beta banner's close, the onboarding's end): sets the flag
 * cookie, then 204 for the shell's own script (it asks for JSON), else back to the posting page.
 */
export async function rememberFlag(request: Request, name: string, maxAgeSeconds: number) {
  const cookie = flagCookie(name, "true", maxAgeSeconds);
  if ((request.headers.get("accept") ?? "").includes("application/json")) {
    return new Response(null, { status: 204, headers: { "Set-Cookie": cookie } });
  }
  const form = await readForm(request).catch(() => new FormData());
  return redirect(safeRedirect(form.get("redirectTo"), "/"), {
    status: 303,
    headers: { "Set-Cookie": cookie },
  });
}
