// The depth check on JSON bodies and the cleaner's walk (docs/decisions/3205): the one-pass count
// agrees with the parsed value's depth, and the cleaner survives any depth and keeps its rules.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_JSON_DEPTH, nestsDeeperThan } from "~/http/json-body.server";
import { cleanJsonValue } from "~/utils/clean-text";

/** The nesting depth of a parsed value, by recursion (the values here are shallow). */
function depthOf(value: unknown): number {
  if (value === null || typeof value !== "object") return 0;
  const children = Object.values(value as object);
  return 1 + Math.max(0, ...children.map(depthOf));
}

describe("nestsDeeperThan", () => {
  it("agrees with the parsed value's depth, brackets inside strings not counted", () => {
    fc.assert(
      fc.property(
        fc.jsonValue({ maxDepth: 8 }),
        fc.integer({ min: 0, max: 10 }),
        (value, limit) => {
          const text = JSON.stringify(value);
          expect(nestsDeeperThan(text, limit)).toBe(depthOf(JSON.parse(text)) > limit);
        },
      ),
      { seed: 3205, numRuns: 500 },
    );
    expect(nestsDeeperThan('{"a":"[[[{{{\\"]]]"}', 1)).toBe(false);
  });

  it("refuses 8,000 levels of objects or arrays at the limit", () => {
    expect(nestsDeeperThan('{"a":'.repeat(8000) + "1" + "}".repeat(8000), MAX_JSON_DEPTH)).toBe(
      true,
    );
    expect(nestsDeeperThan("[".repeat(8000), MAX_JSON_DEPTH)).toBe(true);
    expect(
      nestsDeeperThan("[".repeat(MAX_JSON_DEPTH) + "]".repeat(MAX_JSON_DEPTH), MAX_JSON_DEPTH),
    ).toBe(false);
  });
});

describe("cleanJsonValue", () => {
  it("walks 100,000 levels without overflowing the stack", () => {
    const deep = JSON.parse("[".repeat(100_000) + '"a\\u0000b"' + "]".repeat(100_000));
    let inner = cleanJsonValue(deep);
    for (let i = 0; i < 100_000; i++) inner = (inner as unknown[])[0];
    expect(inner).toBe("ab");
  });

  it("keeps key order, a later duplicate winning, and __proto__ as a plain key", () => {
    const value = JSON.parse(
      '{"z":1,"a\\u0000":{"x":"1"},"a":{"y":"l1\\nl2"},"description":"l1\\nl2","__proto__":{"p":1}}',
    );
    const clean = cleanJsonValue(value) as Record<string, unknown>;
    expect(Object.keys(clean)).toEqual(["z", "a", "description", "__proto__"]);
    expect(clean.a).toEqual({ y: "l1 l2" });
    expect(clean.description).toBe("l1\nl2");
    expect(Object.getPrototypeOf(clean)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(clean, "__proto__")?.value).toEqual({ p: 1 });
  });
});
