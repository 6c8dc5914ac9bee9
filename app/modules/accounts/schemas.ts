import * as z from "zod";

/** The query of /api/login: where to return, the e-mail to suggest, the account type to create. */
export const loginQuerySchema = z.object({
  returnTo: z.string().max(2000).optional(),
  login_hint: z.string().trim().max(254).optional(),
  accountType: z.enum(["buyer", "affiliate"]).optional().catch(undefined),
});
