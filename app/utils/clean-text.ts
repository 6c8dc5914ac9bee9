// One rule for the text people send (docs/decisions/3011): control characters are dropped where
// input enters (form fields, JSON bodies, sign-in claims, imported CSV cells), so nothing stored
// can break a line in an e-mail header or body, a page, a CSV export or a log line.
//
// Dropped: the C0 controls, DEL and the C1 controls, and the invisible bidirectional overrides
// and isolates (they reorder what a reader sees). A field that holds several lines (MULTILINE_FIELDS:
// the textareas) keeps its line breaks, written as "\n"; a tab there becomes a space. In every
// other field a line break or a tab becomes a space: a name, a title or a make is one line.

/** The fields whose value is several lines: every <textarea> in the app (a test checks). */
export const MULTILINE_FIELDS: ReadonlySet<string> = new Set(["body", "description"]);

// C0 except tab, LF, CR; DEL; C1; bidi embeddings, overrides and isolates
const INVISIBLE =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/g;
const LINE_BREAK = /\r\n|[\r\n\u2028\u2029\u0085]/g;

/** `value` without control characters; line breaks kept (as "\n") only when `multiline`. */
export function cleanText(value: string, multiline = false): string {
  if (multiline) {
    return value.replace(LINE_BREAK, "\n").replace(/\t/g, " ").replace(INVISIBLE, "");
  }
  return value.replace(LINE_BREAK, " ").replace(/\t/g, " ").replace(INVISIBLE, "");
}

/** A named field's value, cleaned by the field's kind. */
export function cleanField(name: string, value: string): string {
  return cleanText(value, MULTILINE_FIELDS.has(name));
}

/** Every string in a parsed JSON value, cleaned by the key it sits under. */
export function cleanJsonValue(value: unknown, key = ""): unknown {
  if (typeof value === "string") return cleanField(key, value);
  if (Array.isArray(value)) return value.map((item) => cleanJsonValue(item, key));
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      // defined, not assigned: a "__proto__" key stays a plain key
      Object.defineProperty(out, cleanField("", k), {
        value: cleanJsonValue(v, k),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }
  return value;
}

/** A copy of `form` with every text value cleaned (files left as they are). */
export function cleanFormData(form: FormData): FormData {
  const out = new FormData();
  for (const [name, value] of form.entries()) {
    if (typeof value === "string") out.append(name, cleanField(name, value));
    else out.append(name, value);
  }
  return out;
}
