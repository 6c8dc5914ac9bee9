// The server's side of the one toast path (docs/architecture.md, "Toasts"): a form post answers
// with a redirect that carries its toast in the flash cookie; the root loader reads it once and
// the toaster shows it, with or without JavaScript.
import { redirect } from "@remix-run/node";
import { toastCookie, type FlashToast } from "~/http/cookies.server";
import { toastIn } from "~/utils/toast";

/**
 * The Set-Cookie value for a flash toast, for a response the browser follows with a full page
 * load (a redirect, or a JSON answer after which the page reloads). Prefer `redirectWithToast`.
 */
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
  return { toast: toastIn({ toast: value }), headers };
}
