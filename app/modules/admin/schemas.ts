import * as z from "zod";

export const adminUserEditSchema = z.object({
  intent: z.enum(["review", "confirm"]),
  role: z.enum(["user", "admin"], { message: "Choose a role" }),
  verified: z
    .enum(["true", "false"], { message: "Choose a verification status" })
    .transform((value) => value === "true"),
});

export const settingsSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("maintenance"), enabled: z.enum(["true", "false"]) }),
  z.object({ intent: z.literal("registration"), enabled: z.enum(["true", "false"]) }),
  z.object({
    intent: z.literal("beta-banner"),
    enabled: z.enum(["true", "false"]),
    text: z
      .string({ message: "Banner text is required" })
      .trim()
      .min(1, "Banner text is required")
      .max(200, "Keep the banner under 200 characters"),
  }),
]);
