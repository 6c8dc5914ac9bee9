// The deposit page's form reading on the server. Kept out of the route module, whose imports the
// browser build would otherwise keep (zod and conform's zod adapter on the page's first visit,
// docs/decisions/2906); the browser loads the same schema only when a form is used.
import { parseWithZod } from "@conform-to/zod/v4";
import { depositAmount, depositPageSchema } from "./schemas";

/** The deposit page's posted form (choose, pay or refund), checked. */
export function readDepositForm(formData: FormData) {
  return parseWithZod(formData, { schema: depositPageSchema });
}

/** The amount in `?amount=` when it is a valid deposit amount, else null. */
export function chosenDepositAmount(value: string | null) {
  const chosen = depositAmount.safeParse(value ?? "");
  return chosen.success ? chosen.data : null;
}
