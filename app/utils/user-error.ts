/**
 * The one error a person is meant to read: an HTTP status, a short title, the message, and the
 * form field it is about (if any). Feature modules throw it (or a subclass that names the
 * feature); app/http/respond.server.ts turns it into a JSON answer or a page reply. Anything that
 * is not a UserError is a bug or an outage and is never shown as-is.
 */
export type UserErrorOptions = {
  status?: number;
  title?: string;
  field?: string;
  /** A stable machine-readable reason for JSON clients, when the message alone is not enough. */
  code?: string;
};

export class UserError extends Error {
  readonly status: number;
  readonly title: string;
  readonly field: string | undefined;
  readonly code: string | undefined;

  constructor(message: string, options: UserErrorOptions = {}) {
    super(message);
    this.name = new.target.name;
    this.status = options.status ?? 400;
    this.title = options.title ?? defaultTitle(this.status);
    this.field = options.field;
    this.code = options.code;
  }
}

export function isUserError(error: unknown): error is UserError {
  return error instanceof UserError;
}

function defaultTitle(status: number) {
  if (status === 401) return "Sign in required";
  if (status === 403) return "Not allowed";
  if (status === 404) return "Not found";
  if (status === 409) return "Conflict";
  if (status === 413) return "Too large";
  if (status === 429) return "Too many requests";
  if (status >= 500) return "Unavailable";
  return "Please check your input";
}
