import * as z from "zod";
import { MAX_MESSAGE_LENGTH, MAX_REPORT_REASON_LENGTH } from "./rules";

/** Writing to a seller, or replying in a thread. */
export const messageSchema = z.object({
  body: z
    .string({ error: "Write a message" })
    .trim()
    .min(1, "Write a message")
    .max(MAX_MESSAGE_LENGTH, `Keep it under ${MAX_MESSAGE_LENGTH} characters`),
});

/** Reporting one message to the admins. */
export const reportSchema = z.object({
  messageId: z.string({ error: "Choose a message" }).regex(/^\d{1,18}$/, "Choose a message"),
  reason: z
    .string({ error: "Say what is wrong" })
    .trim()
    .min(1, "Say what is wrong")
    .max(MAX_REPORT_REASON_LENGTH, `Keep it under ${MAX_REPORT_REASON_LENGTH} characters`),
});

/** An admin closing a report. */
export const resolveReportSchema = z.object({
  reportId: z.string({ error: "Choose a report" }).regex(/^\d{1,18}$/, "Choose a report"),
});
