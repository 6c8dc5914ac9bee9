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
 * The registration form, checked by the browser and again by the server (/register's POST).
 * Every field is sent and used: the names and the phone number reach the account the first
 * sign-in creates; the password is set at the sign-in service, so the form asks for none
 * (docs/decisions/3304, refining 1402).
 */
export const registrationSchema = z.object({
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
  phone: required("Enter your phone number.").pipe(
    z
      .string()
      .max(40, "Enter a phone number of at most 40 characters.")
      .regex(/^\+?[\d\s().-]+$/, "Enter a phone number: digits, spaces, + ( ) - and . only.")
      .refine((value) => {
        const digits = value.replace(/\D/g, "").length;
        return digits >= 7 && digits <= 15;
      }, "Enter a phone number of 7 to 15 digits, like 713-555-0100."),
  ),
  terms: z.literal("on", { error: "Agree to the Terms of Service and Privacy Policy." }),
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
