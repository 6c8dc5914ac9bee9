import { createCookie } from "@remix-run/node";
import { env } from "./env.server";

const THIRTY_DAYS = 60 * 60 * 24 * 30;

/** Holds only the opaque session id; the session itself lives in the database. */
export const sessionCookie = createCookie("__session", {
  httpOnly: true,
  sameSite: "lax",
  secure: env().isProduction,
  path: "/",
  maxAge: THIRTY_DAYS,
  secrets: env().SESSION_SECRETS,
});

export type FlashToast = {
  title: string;
  description?: string;
  type?: "success" | "error" | "info";
};

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
