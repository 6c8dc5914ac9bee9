// The one reader of form bodies (url-encoded, or multipart without files), as readJson is of JSON
// ones: an action calls readForm(request), never request.formData(). The form comes back within
// the limits below and without control characters (docs/decisions/3011, 3205); a form that passes
// a limit, or cannot be read, is a 400 that says so. The multipart upload readers stream their
// parts instead (multipart-body.server.ts) and clean each text field the same way.
import { cleanFormData } from "~/utils/clean-text";
import { jsonError, wantsJson } from "./http.server";

/** How many fields a form may send, and how long one text field may be (docs/decisions/3205). */
export const MAX_FORM_FIELDS = 1000;
export const MAX_FORM_FIELD_CHARS = 64 * 1024;

export const FORM_UNREADABLE = "The form could not be read";
export const TOO_MANY_FIELDS = `The form has too many fields: at most ${MAX_FORM_FIELDS}`;
export const FIELD_TOO_LONG = `A form field is too long: at most ${MAX_FORM_FIELD_CHARS} characters`;

function badForm(request: Request, message: string) {
  return wantsJson(request)
    ? jsonError(400, message)
    : new Response(message, { status: 400, headers: { "Content-Type": "text/plain" } });
}

/** The form, or a thrown 400 naming the limit it passes, or saying it cannot be read. */
async function boundedForm(request: Request) {
  let form: FormData;
  try {
    form = await request.formData();
  } catch (error) {
    if (error instanceof Response) throw error;
    // undici's parser refuses a body that is not the form its content type says (a
    // multipart body without its boundary, say): the client's mistake, not ours
    throw badForm(request, FORM_UNREADABLE);
  }
  let count = 0;
  for (const [name, value] of form.entries()) {
    if (++count > MAX_FORM_FIELDS) throw badForm(request, TOO_MANY_FIELDS);
    if (name.length > MAX_FORM_FIELD_CHARS) throw badForm(request, FIELD_TOO_LONG);
    if (typeof value === "string" && value.length > MAX_FORM_FIELD_CHARS)
      throw badForm(request, FIELD_TOO_LONG);
  }
  return form;
}

/** The posted form, bounded and cleaned; a thrown 400 when it passes a limit or cannot be read. */
export async function readForm(request: Request): Promise<FormData> {
  return cleanFormData(await boundedForm(request));
}

/**
 * A multipart body without its boundary cannot be read by any parser (the uploads' stream
 * readers threw a TypeError, a 500): every action refuses it before it runs (route-guards.server.ts).
 */
export function refuseBoundlessMultipart(request: Request) {
  const type = request.headers.get("content-type") ?? "";
  if (/^\s*multipart\/form-data/i.test(type) && !/;\s*boundary=[^;\s]/i.test(type))
    throw badForm(request, FORM_UNREADABLE);
}
