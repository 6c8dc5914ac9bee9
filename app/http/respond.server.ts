// The HTTP edge's one way to answer a refusal: a UserError (app/utils/user-error.ts) becomes a JSON
// answer for /api/* and fetch clients, or a page reply (conform's submission.reply, via replyFor, with the
// message on its field) for a form post. Anything else is rethrown: it is a bug or an outage, and
// the server's error handling (app/entry.server.tsx, app/platform/availability.server.ts) answers it.
import type { SubmissionResult } from "@conform-to/react";
import { isUserError, type UserError } from "~/utils/user-error";

/** The JSON shape every /api/* refusal has: `error` and `message` carry the same text. */
export function jsonError(status: number, message: string, extra: Record<string, unknown> = {}) {
  return Response.json({ error: message, message, ...extra }, { status });
}

/** How long a client is told to wait (Retry-After) when a service, e.g. file storage, is down. */
export const UNAVAILABLE_RETRY_SECONDS = 30;

/**
 * The status and headers of an answer: a 503 (not the person's fault, e.g. a full upload disk)
 * says when to try again (record 3208).
 */
export function answerInit(status: number): ResponseInit {
  return status === 503
    ? { status, headers: { "Retry-After": String(UNAVAILABLE_RETRY_SECONDS) } }
    : { status };
}

/** A UserError as its JSON answer; `prefix` puts a call's own headline before the reason. */
export function errorJson(error: unknown, options: { prefix?: string } = {}): Response {
  if (!isUserError(error)) throw error;
  const message = options.prefix ? `${options.prefix} ${error.message}` : error.message;
  const answer = jsonError(error.status, message, {
    title: error.title,
    ...(error.field ? { field: error.field } : {}),
    ...(error.code ? { code: error.code } : {}),
    ...(options.prefix ? { reason: error.message } : {}),
  });
  if (error.status === 503) answer.headers.set("Retry-After", String(UNAVAILABLE_RETRY_SECONDS));
  return answer;
}

type Replyable = {
  reply(options?: {
    formErrors?: string[];
    fieldErrors?: Record<string, string[]>;
    resetForm?: boolean;
  }): SubmissionResult<string[]>;
};

/** The conform reply for a UserError: on its field when the form has one, else for the form. */
export function replyFor(submission: Replyable, error: UserError) {
  return error.field
    ? submission.reply({ fieldErrors: { [error.field]: [error.message] } })
    : submission.reply({ formErrors: [error.message] });
}

/**
 * For a page's loader or action: a UserError becomes the page's error answer (its status and
 * message, shown by the route's ErrorBoundary); anything else is rethrown as the bug it is.
 */
export function throwAsPageError(error: unknown): never {
  if (isUserError(error)) throw new Response(error.message, { status: error.status });
  throw error;
}
