// What the early-access signup tells the user, shared by the route's answers and the dialog.
import type { Toast } from "~/utils/toast";

export const EARLY_ACCESS_SUCCESS = {
  title: "Success!",
  description: "You've been added to our early access list",
  type: "success",
} satisfies Toast;

export const EARLY_ACCESS_DUPLICATE = {
  title: "You're already on the list",
  description: "This e-mail is already on our early access list. We'll be in touch!",
  type: "info",
} satisfies Toast;

export const EARLY_ACCESS_FAILED = {
  title: "Error",
  description: "Failed to sign up. Please try again.",
  type: "error",
} satisfies Toast;
