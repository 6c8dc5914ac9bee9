import { UserError, type UserErrorOptions } from "~/utils/user-error";

/** A refusal about a purchase the buyer (or admin) caused or can act on. */
export class PurchaseError extends UserError {
  constructor(message: string, options: UserErrorOptions = {}) {
    super(message, options);
  }
}
