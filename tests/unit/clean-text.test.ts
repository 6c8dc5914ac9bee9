// Control characters are dropped at the input edge (docs/decisions/3011), by one helper.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { cleanFormData, cleanJsonValue, cleanText, MULTILINE_FIELDS } from "~/utils/clean-text";

describe("cleanText", () => {
  it("makes a one-line field one line: CR/LF and tabs become spaces, controls go", () => {
    expect(cleanText("Mallory\r\nBcc: victim@x.test")).toBe("Mallory Bcc: victim@x.test");
    expect(cleanText("a\tb\u0000c\u0007d\u001be\u007ff\u0085g")).toBe("a bcdef g");
    expect(cleanText("TOY\rOTA\u2028X")).toBe("TOY OTA X");
  });

  it("drops the invisible bidirectional overrides and isolates", () => {
    expect(cleanText("abc\u202Egpj.exe\u2066x\u2069")).toBe("abcgpj.exex");
  });

  it("keeps line breaks in a multi-line field, written as \\n", () => {
    expect(cleanText("line 1\r\nline 2\rline 3\u2028line 4\u0000", true)).toBe(
      "line 1\nline 2\nline 3\nline 4",
    );
  });

  it("leaves ordinary text alone: accents, emoji, quotes, non-Latin scripts", () => {
    const text = "Zoë’s “Civic” 🚗 — 東京 ñ";
    expect(cleanText(text)).toBe(text);
    expect(cleanText(text, true)).toBe(text);
  });
});

describe("the form and JSON edges", () => {
  it("cleans each field by its kind and leaves files alone", () => {
    const form = new FormData();
    form.append("firstName", "Eve\r\nBcc: x@y.test");
    form.append("description", "Runs.\r\nDrives.");
    const file = new File([new Uint8Array([0, 1, 2])], "a.bin");
    form.append("photo", file);
    const clean = cleanFormData(form);
    expect(clean.get("firstName")).toBe("Eve Bcc: x@y.test");
    expect(clean.get("description")).toBe("Runs.\nDrives.");
    expect(clean.get("photo")).toBeInstanceOf(File);
  });

  it("cleans every string of a JSON body, nested too, and keeps __proto__ a plain key", () => {
    const parsed = JSON.parse(
      '{"make":"Ford\\r\\nX","body":"a\\r\\nb","tags":["x\\u0000y"],"__proto__":{"admin":true}}',
    );
    const clean = cleanJsonValue(parsed) as Record<string, unknown>;
    expect(clean.make).toBe("Ford X");
    expect(clean.body).toBe("a\nb");
    expect(clean.tags).toEqual(["xy"]);
    expect(Object.getPrototypeOf(clean)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
    expect(Object.keys(clean)).toContain("__proto__");
  });

  it("knows every multi-line field: each <textarea> in the app is in MULTILINE_FIELDS", () => {
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(full);
        else if (full.endsWith(".tsx")) files.push(full);
      }
    };
    walk("app");
    const names = new Set<string>();
    for (const file of files) {
      const text = readFileSync(file, "utf8");
      for (const m of text.matchAll(/getTextareaProps\(fields\.(\w+)\)/g)) names.add(m[1]);
      for (const m of text.matchAll(/<textarea[^>]*\sname="(\w+)"/g)) names.add(m[1]);
    }
    expect(names.size).toBeGreaterThan(0);
    for (const name of names) expect(MULTILINE_FIELDS.has(name), name).toBe(true);
  });
});
