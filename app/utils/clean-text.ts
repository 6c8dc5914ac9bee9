// One rule for the text people send (docs/decisions/3011): control characters are dropped where
// input enters (form fields, JSON bodies, sign-in claims, imported CSV cells), so nothing stored
// can break a line in an e-mail header or body, a page, a CSV export or a log line.
//
// Dropped: the C0 controls, DEL and the C1 controls, and the invisible bidirectional overrides
// and isolates (they reorder what a reader sees). A field that holds several lines (MULTILINE_FIELDS:
// the textareas) keeps its line breaks, written as "\n"; a tab there becomes a space. In every
// other field a line break or a tab becomes a space: a name, a title or a make is one line.

/** The fields whose value is several lines: every <textarea> in the app (a test checks). */
export const MULTILINE_FIELDS: ReadonlySet<string> = new Set([
  "body",
  "description",
  "message",
  "resolution",
]);

// C0 except tab, LF, CR; DEL; C1; bidi embeddings, overrides and isolates
const INVISIBLE =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
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

function define(out: object, name: string, value: unknown) {
  // defined, not assigned: a "__proto__" key stays a plain key
  Object.defineProperty(out, name, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * Every string in a parsed JSON value, cleaned by the key it sits under. Walked with a list of
 * work, not by recursion, so no depth of nesting can overflow the stack (docs/decisions/3205).
 */
export function cleanJsonValue(value: unknown, key = ""): unknown {
  type Job = { from: unknown; key: string; put: (cleaned: unknown) => void };
  let result: unknown;
  const work: Job[] = [{ from: value, key, put: (cleaned) => (result = cleaned) }];
  for (let job = work.pop(); job; job = work.pop()) {
    const { from, put } = job;
    if (typeof from === "string") put(cleanField(job.key, from));
    else if (Array.isArray(from)) {
      const out: unknown[] = new Array(from.length).fill(null);
      put(out);
      for (let i = from.length - 1; i >= 0; i--)
        work.push({ from: from[i], key: job.key, put: (cleaned) => (out[i] = cleaned) });
    } else if (from !== null && typeof from === "object") {
      const out: Record<string, unknown> = {};
      put(out);
      const entries = Object.entries(from);
      // every key in its place first, then the values, taken in order (a later duplicate wins)
      for (const [k] of entries) define(out, cleanField("", k), undefined);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [k, v] = entries[i];
        const name = cleanField("", k);
        work.push({ from: v, key: k, put: (cleaned) => define(out, name, cleaned) });
      }
    } else put(from);
  }
  return result;
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
