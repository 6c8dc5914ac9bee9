import * as z from "zod";
import { SAVED_SEARCH_SCOPES } from "./rules";

/** The "Save this search" form: which page, and that page's query string. */
export const saveSearchSchema = z.object({
  scope: z.enum(SAVED_SEARCH_SCOPES, { error: "Choose auctions or community vehicles" }),
  query: z
    .string()
    .max(1000, "That search is too long to save")
    .optional()
    .transform((value) => (value ?? "").replace(/^\?/, "")),
  email: z.preprocess((value) => value === "on" || value === "true", z.boolean()),
});

/** A saved search's own buttons (stop e-mail, delete). */
export const savedSearchActionSchema = z.object({
  intent: z.enum(["delete", "email-on", "email-off"]),
  id: z.string().regex(/^\d{1,18}$/, "Choose a saved search"),
});
