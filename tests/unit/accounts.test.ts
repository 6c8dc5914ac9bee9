import { describe, expect, it } from "vitest";
import { formatUsd } from "~/components/dashboard";
import { userLabel } from "~/components/site-header";
import { loginQuerySchema } from "~/services/accounts/schemas";
import { earlyAccessSchema } from "~/services/accounts/early-access.schemas";
import { startLocalIssuer } from "../../scripts/local-issuer";

describe("early access schema", () => {
  it("requires a valid e-mail, lower-cases it and keeps names optional", () => {
    expect(earlyAccessSchema.parse({ email: " Ann@Example.COM " })).toEqual({
      email: "ann@example.com",
      firstName: null,
      lastName: null,
    });
    expect(earlyAccessSchema.parse({ email: "a@b.co", firstName: " Ann ", lastName: "" })).toEqual({
      email: "a@b.co",
      firstName: "Ann",
      lastName: null,
    });
    const missing = earlyAccessSchema.safeParse({});
    expect(missing.success).toBe(false);
    expect(missing.error!.issues[0].message).toBe("Email is required");
    for (const email of ["", "nope", "a@", "@b.co", `${"x".repeat(250)}@b.co`]) {
      expect(earlyAccessSchema.safeParse({ email }).success).toBe(false);
    }
    expect(
      earlyAccessSchema.safeParse({ email: "a@b.co", firstName: "x".repeat(101) }).success,
    ).toBe(false);
  });
});

describe("login query", () => {
  it("keeps only a known account type", () => {
    expect(loginQuerySchema.parse({ accountType: "affiliate" }).accountType).toBe("affiliate");
    expect(loginQuerySchema.parse({ accountType: "admin" }).accountType).toBeUndefined();
  });
});

describe("header label", () => {
  it("is the first name, else the e-mail, else 'User'", () => {
    expect(userLabel({ firstName: "Ann", email: "a@b.co" })).toBe("Ann");
    expect(userLabel({ firstName: "  ", email: "a@b.co" })).toBe("a@b.co");
    expect(userLabel({ firstName: null, email: "" })).toBe("User");
  });
});

describe("dashboard money", () => {
  it("formats a decimal string with two decimals", () => {
    expect(formatUsd("2500.00")).toBe("$2,500.00");
    expect(formatUsd("0.5")).toBe("$0.50");
    expect(formatUsd("1234567890.12")).toBe("$1,234,567,890.12");
  });
});

describe("local issuer", () => {
  it("never starts in production", async () => {
    const before = process.env.NODE_ENV;
    process.env.NODE_ENV = "production";
    try {
      await expect(
        startLocalIssuer({ redirectUris: ["http://localhost:3000/api/callback"] }),
      ).rejects.toThrow(/never runs in production/);
    } finally {
      process.env.NODE_ENV = before;
    }
  });
});
