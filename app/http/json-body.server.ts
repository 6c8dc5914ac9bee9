import type * as z from "zod";
import { jsonError } from "./http.server";

/** Parses a JSON body with `schema`; a bad body is a 400 with the first problem, never a 500. */
export async function parseJsonBody<T extends z.ZodType>(request: Request, schema: T) {
  let body: unknown = {};
  const text = await request.text();
  if (text.trim() !== "") {
    try {
      body = JSON.parse(text);
    } catch {
      throw jsonError(400, "The request body must be JSON.");
    }
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw jsonError(400, issue.message, {
      fields: Object.fromEntries(parsed.error.issues.map((i) => [i.path.join("."), i.message])),
    });
  }
  return parsed.data as z.infer<T>;
}
