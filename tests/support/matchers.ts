// Custom matchers, registered for every test file (vitest.config.ts setupFiles).
//
//   await expect(work).toBeRefused(409)
//   await expect(work).toBeRefused(409, "This purchase is already paid.")
//   await expect(response).toBeRefused(403, /Cross-origin request refused/)
//
// `work` is a promise (or its answer): refused means it threw a UserError (MembershipError,
// PurchaseError, …) or answered a Response, returned or thrown, with that status. The message, if
// given, is for an error its whole message (a string) or matches it (a RegExp); for a Response it
// is found in the body (a JSON body's `message` or `error`, or its text, entities decoded).
import { expect } from "vitest";
import { UserError } from "~/utils/user-error";

type Message = string | RegExp;

async function bodyMessage(response: Response): Promise<string> {
  const text = await response.clone().text();
  if (response.headers.get("content-type")?.includes("json")) {
    try {
      const body = JSON.parse(text) as { message?: unknown; error?: unknown };
      return [body.message, body.error].filter((part) => typeof part === "string").join("\n");
    } catch {
      return text;
    }
  }
  return text
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

expect.extend({
  async toBeRefused(received: unknown, status: number, message?: Message) {
    let answer: unknown;
    try {
      answer = await received;
    } catch (error) {
      answer = error;
    }
    const expected = message === undefined ? `${status}` : `${status} "${String(message)}"`;
    let actual: string;
    let pass: boolean;
    if (answer instanceof Response) {
      const text = await bodyMessage(answer);
      actual = `a Response ${answer.status}: ${text.slice(0, 300)}`;
      pass =
        answer.status === status &&
        (message === undefined ||
          (typeof message === "string" ? text.includes(message) : message.test(text)));
    } else if (answer instanceof UserError) {
      actual = `${answer.name} ${answer.status} "${answer.message}"`;
      pass =
        answer.status === status &&
        (message === undefined ||
          (typeof message === "string"
            ? answer.message === message
            : message.test(answer.message)));
    } else if (answer instanceof Error) {
      // Not a refusal but a failure: let it show as it is.
      throw answer;
    } else {
      actual = `accepted: ${this.utils.stringify(answer)}`;
      pass = false;
    }
    return {
      pass,
      message: () =>
        pass
          ? `expected not to be refused with ${expected}, but it was`
          : `expected a refusal ${expected}, got ${actual}`,
    };
  },
});

interface RefusalMatchers<R = unknown> {
  /** Refused with `status` (and `message`): a thrown UserError or a Response; see matchers.ts. */
  toBeRefused(status: number, message?: Message): Promise<R>;
}

declare module "vitest" {
  // vitest's own way to add a matcher: its Matchers interface widened by ours, with its own `any`
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-explicit-any -- the declaration merge vitest documents
  interface Matchers<T = any> extends RefusalMatchers<T> {}
}
