import * as z from "zod";

export const CONTACT_TOPICS = ["account", "deposit", "purchase", "privacy", "other"] as const;
export type ContactTopic = (typeof CONTACT_TOPICS)[number];

/** The Contact page's choices, in the order shown. */
export const CONTACT_TOPIC_LABELS: Record<ContactTopic, string> = {
  account: "My account or identity verification",
  deposit: "Deposits, refunds and buying power",
  purchase: "An invoice, a pickup or transport",
  privacy: "Privacy, or deleting my data or ID document",
  other: "Something else",
};

export const MAX_CONTACT_LENGTH = 4000;

/** The Contact page's form (docs/decisions/3301). */
export const contactSchema = z.object({
  name: z
    .string({ error: "Enter your name." })
    .trim()
    .min(1, "Enter your name.")
    .max(100, "Names can be at most 100 characters."),
  email: z
    .string({ error: "Enter your e-mail address." })
    .trim()
    .min(1, "Enter your e-mail address.")
    .pipe(z.email("Enter a valid e-mail address.").max(254, "Enter a valid e-mail address.")),
  topic: z.enum(CONTACT_TOPICS, { error: "Choose what your message is about." }),
  message: z
    .string({ error: "Write your message." })
    .trim()
    .min(1, "Write your message.")
    .max(MAX_CONTACT_LENGTH, `Keep it under ${MAX_CONTACT_LENGTH} characters.`),
});

export type ContactInput = z.infer<typeof contactSchema>;

/** An admin marking a contact message answered. */
export const answerContactSchema = z.object({
  messageId: z.string({ error: "Choose a message" }).regex(/^\d{1,18}$/, "Choose a message"),
});
