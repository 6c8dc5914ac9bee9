import { describe, expect, it } from "vitest";
import { safeRedirect } from "~/http/http.server";

describe("safeRedirect", () => {
  it("percent-encodes what a Location header cannot carry", () => {
    expect(safeRedirect("/€")).toBe("/%E2%82%AC");
    expect(safeRedirect("/\u3000")).toBe("/%E3%80%80");
    expect(safeRedirect("/a b?make=Citroën")).toBe("/a%20b?make=Citro%C3%ABn");
    expect(safeRedirect("/deposit?x=1&y=%2F")).toBe("/deposit?x=1&y=%2F");
  });

  it("falls back for what has no safe form", () => {
    expect(safeRedirect("/\ud800")).toBe("/");
    expect(safeRedirect("/\u007f")).toBe("/");
    expect(safeRedirect("/\u3000/", "/home")).toBe("/%E3%80%80/");
    expect(safeRedirect("//evil.example")).toBe("/");
    expect(safeRedirect("/\\evil.example")).toBe("/");
  });
});
