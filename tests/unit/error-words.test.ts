// What an error page says for each kind of error body (docs/decisions/3521).
import { describe, expect, it } from "vitest";
import { errorMessage, retryAfterOf, statusWords, waitInWords } from "~/utils/error-words";

describe("an error's sentence", () => {
  it("is a text body's words", () => {
    expect(errorMessage("This listing does not exist.")).toBe("This listing does not exist.");
    expect(errorMessage("  Too many requests.  ")).toBe("Too many requests.");
  });

  it("is a JSON or data() body's message, or its error", () => {
    expect(errorMessage({ error: "Too many", message: "Too many requests." })).toBe(
      "Too many requests.",
    );
    expect(errorMessage({ error: "Sign in first." })).toBe("Sign in first.");
  });

  it("is nothing for what is not a sentence: objects, markup, blobs, empties", () => {
    for (const body of [
      { retryAfter: 60 },
      { message: { nested: true } },
      [1, 2],
      "<html><body>Bad gateway</body></html>",
      '{"error":"x"}',
      "[object Object]",
      "x".repeat(501),
      "",
      "   ",
      null,
      undefined,
      42,
    ]) {
      expect(errorMessage(body), JSON.stringify(body)).toBeUndefined();
    }
  });
});

describe("a status's words", () => {
  it("has its own title for the common ones, 429 included", () => {
    expect(statusWords(429)).toEqual({
      title: "Too many requests",
      body: "Please wait a moment and try again.",
    });
    expect(statusWords(405).title).toBe("Not possible here");
    expect(statusWords(404).title).toBe("Page Not Found");
  });

  it("falls back by class: a 4xx is not 'went wrong on our side'", () => {
    expect(statusWords(418).title).toBe("Something is not right");
    expect(statusWords(599).title).toBe("Something went wrong");
    expect(statusWords(500).body).toMatch(/on our side/);
  });
});

describe("a 429's wait", () => {
  it("comes from the body's retryAfter only when it is a positive number", () => {
    expect(retryAfterOf({ retryAfter: 3540 })).toBe(3540);
    expect(retryAfterOf({ retryAfter: "60" })).toBeUndefined();
    expect(retryAfterOf({ retryAfter: 0 })).toBeUndefined();
    expect(retryAfterOf("Too many requests.")).toBeUndefined();
  });

  it("reads as words", () => {
    expect(waitInWords(1)).toBe("1 second");
    expect(waitInWords(45)).toBe("45 seconds");
    expect(waitInWords(60)).toBe("about 1 minute");
    expect(waitInWords(3540)).toBe("about 59 minutes");
    expect(waitInWords(3600)).toBe("about 60 minutes");
    expect(waitInWords(7200)).toBe("about 2 hours");
  });
});
