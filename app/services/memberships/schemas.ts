import * as z from "zod";

/** A plan or campaign id: bigint ids travel as digit strings; JSON callers may send numbers. */
const recordId = (label: string) =>
  z
    .union(
      [
        z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
        z
          .string()
          .trim()
          .regex(/^[1-9]\d{0,17}$/),
      ],
      { error: `Choose a valid ${label}` },
    )
    .transform(String);

/** POST /api/membership/subscribe and the Subscribe Now button. */
export const subscribeSchema = z.object({
  planId: recordId("plan"),
  campaignId: recordId("campaign").optional(),
});

/** POST /api/membership/start-trial and the Start Free Trial button. */
export const startTrialSchema = z.object({
  planId: recordId("plan"),
  campaignId: recordId("campaign"),
});

/** Every button on /membership posts one of these, named by `intent`. */
export const membershipIntentSchema = z.discriminatedUnion("intent", [
  subscribeSchema.extend({ intent: z.literal("subscribe") }),
  startTrialSchema.extend({ intent: z.literal("start-trial") }),
  z.object({ intent: z.literal("cancel") }),
  z.object({ intent: z.literal("renew") }),
]);
