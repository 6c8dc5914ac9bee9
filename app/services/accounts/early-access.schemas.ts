import * as z from "zod";

const name = z
  .string()
  .trim()
  .max(100, "Names can be at most 100 characters")
  .optional()
  .transform((value) => value || null);

/** The early-access (pre-launch) signup: e-mail required and valid, names optional. */
export const earlyAccessSchema = z.object({
  email: z
    .string({ error: "Email is required" })
    .trim()
    .toLowerCase()
    .min(1, "Email is required")
    .max(254, "Please enter a valid email address")
    .pipe(z.email("Please enter a valid email address")),
  firstName: name,
  lastName: name,
});

export type EarlyAccessInput = z.infer<typeof earlyAccessSchema>;

/** The hidden field only bots fill in (kept in a zod-free module so the shell can name it). */
export { HONEYPOT_FIELD } from "~/utils/shell";
