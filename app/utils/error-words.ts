// What an error page says, in words, whatever the error carried: a thrown Response with a text
// or a JSON body (`{ message }` or `{ error }`, the shape every /api/* refusal has), data()
// thrown with an object, or a bug. Never "[object Object]", never markup (docs/decisions/3521).

type Words = { title: string; body: string };

const TITLES: Record<number, Words> = {
  400: { title: "Something is not right", body: "The request could not be understood." },
  401: { title: "Authentication Required", body: "Please sign in to continue." },
  403: { title: "Access Denied", body: "You do not have permission to see this page." },
  404: {
    title: "Page Not Found",
    body: "The page you are looking for does not exist or has moved.",
  },
  405: {
    title: "Not possible here",
    body: "This address does not take that kind of request. Go back and use the page's own form.",
  },
  408: { title: "That took too long", body: "The request took too long. Please try again." },
  409: {
    title: "That could not be done",
    body: "Something changed in the meantime. Reload the page and try again.",
  },
  410: { title: "No longer here", body: "This page has been removed." },
  413: { title: "Too large", body: "What was sent is too large." },
  429: { title: "Too many requests", body: "Please wait a moment and try again." },
  503: {
    title: "We'll be right back",
    body: "BidYard is briefly unavailable. Please try again shortly.",
  },
};

const CLIENT_ERROR: Words = {
  title: "Something is not right",
  body: "The request could not be completed.",
};
const SERVER_ERROR: Words = {
  title: "Something went wrong",
  body: "An unexpected error happened on our side. Please try again.",
};

/** The page's title and standing text for a status. */
export function statusWords(status: number): Words {
  return TITLES[status] ?? (status >= 400 && status < 500 ? CLIENT_ERROR : SERVER_ERROR);
}

/** The longest message an error page repeats; anything longer is not meant for a person. */
const MAX_MESSAGE = 500;

function readable(text: unknown): string | undefined {
  if (typeof text !== "string") return undefined;
  const trimmed = text.trim();
  if (!trimmed || trimmed.length > MAX_MESSAGE) return undefined;
  // markup (a proxy's HTML page) or a serialised object is not a sentence
  if (/^[<{[]/.test(trimmed) || trimmed.includes("[object ")) return undefined;
  return trimmed;
}

/** The sentence an error's body carries for a person, if it carries one. */
export function errorMessage(data: unknown): string | undefined {
  if (data && typeof data === "object") {
    const fields = data as { message?: unknown; error?: unknown };
    return readable(fields.message) ?? readable(fields.error);
  }
  return readable(data);
}

/** A wait in words ("about 59 minutes"), for a 429 that says how long (its `retryAfter`). */
export function waitInWords(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? "" : "s"}`;
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 90) return `about ${minutes} minute${minutes === 1 ? "" : "s"}`;
  const hours = Math.round(minutes / 60);
  return `about ${hours} hour${hours === 1 ? "" : "s"}`;
}

/** How long a 429's body says to wait, in seconds, if it says. */
export function retryAfterOf(data: unknown): number | undefined {
  if (!data || typeof data !== "object") return undefined;
  const value = (data as { retryAfter?: unknown }).retryAfter;
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : undefined;
}
