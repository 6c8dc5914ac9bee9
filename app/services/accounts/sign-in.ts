// What a page does when the server says the user must sign in while the app's scripts run
// (docs/decisions/0104): a toast, then /api/login after 500 ms. Without JavaScript the server
// redirects at once.
import type { Toast } from "~/utils/toast";

export const LOGIN_REDIRECT_DELAY_MS = 500;

export type SignInToast = Toast & { description: string; type: "error" };

/** The body of the 401 a page's loader or action throws for a signed-out user. */
export type SignInRequired = { signIn: string; toast: SignInToast };

export const UNAUTHORIZED_TOAST: SignInToast = {
  title: "Unauthorized",
  description: "You are logged out. Logging in again...",
  type: "error",
};

/** Reads a 401's body, keeping only our own sign-in address and plain texts. */
export function readSignInRequired(value: unknown): SignInRequired {
  const body = (value ?? {}) as Partial<Record<keyof SignInRequired, unknown>>;
  const signIn =
    typeof body.signIn === "string" && /^\/api\/login(\?|$)/.test(body.signIn)
      ? body.signIn
      : "/api/login";
  const toast = body.toast as Partial<SignInToast> | undefined;
  return {
    signIn,
    toast:
      typeof toast?.title === "string" && typeof toast.description === "string"
        ? { title: toast.title, description: toast.description, type: "error" }
        : UNAUTHORIZED_TOAST,
  };
}
