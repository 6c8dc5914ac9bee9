import * as z from "zod";

export const adminUserEditSchema = z.object({
  intent: z.enum(["review", "confirm"]),
  role: z.enum(["user", "admin"], { message: "Choose a role" }),
  verified: z
    .enum(["true", "false"], { message: "Choose a verification status" })
    .transform((value) => value === "true"),
});

/** The beta banner's text: the one rule for the settings form and the JSON call. */
export const BANNER_TEXT_REQUIRED = "Enter the banner text";
export const bannerTextSchema = z
  .string({ message: BANNER_TEXT_REQUIRED })
  .trim()
  .min(1, BANNER_TEXT_REQUIRED)
  .max(200, "Keep the banner under 200 characters");

export const settingsSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("maintenance"), enabled: z.enum(["true", "false"]) }),
  z.object({ intent: z.literal("registration"), enabled: z.enum(["true", "false"]) }),
  z.object({
    intent: z.literal("beta-banner"),
    enabled: z.enum(["true", "false"]),
    text: bannerTextSchema,
  }),
]);

/** An admin's retry or discard of a failed background job (/admin/jobs). */
export const failedJobActionSchema = z.object({
  intent: z.enum(["retry", "discard"], { message: "Choose retry or discard" }),
  jobId: z.string({ message: "Choose a job" }).regex(/^\d{1,18}$/, "Choose a job"),
});
