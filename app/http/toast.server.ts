import { redirect } from "@remix-run/node";
import { toastCookie, type FlashToast } from "~/http/cookies.server";

export async function setToastHeader(toast: FlashToast) {
  return toastCookie.serialize(toast);
}

/** Redirects and shows `toast` on the next page, with or without JavaScript. */
export async function redirectWithToast(to: string, toast: FlashToast, init: ResponseInit = {}) {
  const headers = new Headers(init.headers);
  headers.append("Set-Cookie", await setToastHeader(toast));
  return redirect(to, { ...init, headers });
}

/** Reads and clears the flash toast. */
export async function readToast(
  request: Request,
): Promise<{ toast: FlashToast | null; headers: Headers }> {
  const value = await toastCookie.parse(request.headers.get("cookie"));
  const headers = new Headers();
  if (!value) return { toast: null, headers };
  headers.append(
    "Set-Cookie",
    await toastCookie.serialize("", { maxAge: 0, expires: new Date(0) }),
  );
  const toast =
    value && typeof value === "object" && typeof (value as FlashToast).title === "string"
      ? (value as FlashToast)
      : null;
  return { toast, headers };
}
