// The JSON calls share how they read a body and answer a refusal.
import type * as z from "zod";
import { jsonError } from "~/http/http.server";
import { MembershipError } from "./memberships.server";

/** The JSON body checked against `schema`, or a thrown 400 naming the first problem. */
export async function readJsonBody<T extends z.ZodType>(request: Request, schema: T) {
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    throw jsonError(400, "The body must be JSON.");
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    throw jsonError(400, parsed.error.issues[0]?.message ?? "Invalid request", {
      fieldErrors: Object.fromEntries(
        parsed.error.issues.map((issue) => [issue.path.join("."), [issue.message]]),
      ),
    });
  }
  return parsed.data as z.output<T>;
}

/** A MembershipError as its 4xx answer with SPEC.md's message first; anything else is rethrown. */
export function membershipErrorResponse(error: unknown, specMessage: string) {
  if (error instanceof MembershipError) {
    return jsonError(error.status, `${specMessage} ${error.message}`, { reason: error.message });
  }
  throw error;
}
