import * as z from "zod";
import { MAIL_TOPICS } from "~/platform/mail/topics";
import { isTimeZone } from "./time-zones";

/** The query of /api/login: where to return, the e-mail to suggest, the account type to create. */
export const loginQuerySchema = z.object({
  returnTo: z.string().max(2000).optional(),
  login_hint: z.string().trim().max(254).optional(),
  accountType: z.enum(["buyer", "affiliate"]).optional().catch(undefined),
});

export { REGISTRATION_MARKER } from "./registration-marker";

const required = (message: string) => z.string({ error: message }).trim().min(1, message);

/**
 * What the registration form sends to /api/login (a GET, so only these travel: the phone
 * number and the passwords stay on the page). The server checks exactly this; the browser checks
 * it and the rest (`registrationSchema`). Record 1402.
 */
export const registrationSentSchema = z.object({
  accountType: z.enum(["buyer", "affiliate"], { error: "Choose an account type." }),
  firstName: required("Enter your first name.").pipe(
    z.string().max(100, "Names can be at most 100 characters."),
  ),
  lastName: required("Enter your last name.").pipe(
    z.string().max(100, "Names can be at most 100 characters."),
  ),
  login_hint: required("Enter your e-mail address.").pipe(
    z.email("Enter a valid e-mail address.").max(254, "Enter a valid e-mail address."),
  ),
  terms: z.literal("on", { error: "Agree to the Terms of Service and Privacy Policy." }),
});

/** The whole registration form, as the browser checks it before sending. */
export const registrationSchema = registrationSentSchema.extend({
  phone: required("Enter your phone number.").pipe(
    z.string().max(40, "Enter a phone number of at most 40 characters."),
  ),
  password: z.string({ error: "Choose a password." }).min(1, "Choose a password."),
  confirmPassword: z.string({ error: "Confirm your password." }).min(1, "Confirm your password."),
});

export type RegistrationField = keyof z.infer<typeof registrationSchema>;
export type RegistrationErrors = Partial<Record<RegistrationField, string>>;

/** The first message for each field of a failed parse. */
export function registrationErrors(error: z.ZodError): RegistrationErrors {
  const errors: RegistrationErrors = {};
  for (const issue of error.issues) {
    const field = issue.path[0] as RegistrationField;
    errors[field] ??= issue.message;
  }
  return errors;
}

/** The time-zone setting's form (docs/decisions/1802). */
export const timeZoneSchema = z.object({
  timeZone: z
    .string({ error: "Choose a time zone." })
    .trim()
    .refine(isTimeZone, { message: "Choose a time zone from the list." }),
});

/** The account page's e-mail preferences: the ticked topics (none ticked stops them all). */
export const mailPreferencesSchema = z.object({
  intent: z.literal("mail-preferences", { error: "The form was incomplete. Please try again." }),
  topic: z
    .array(z.enum(MAIL_TOPICS, { error: "That is not one of our e-mail topics." }))
    .max(MAIL_TOPICS.length)
    .default([]),
});
