import { describe, expect, it } from "vitest";
import { readSignInRequired, UNAUTHORIZED_TOAST } from "~/services/accounts/sign-in";

describe("the 401 a page turns into a toast and a sign-in", () => {
  it("keeps our own sign-in address and the server's toast", () => {
    const toast = {
      title: "Authentication Required",
      description: "Please log in.",
      type: "error",
    };
    expect(readSignInRequired({ signIn: "/api/login?returnTo=%2Fdeposit", toast })).toEqual({
      signIn: "/api/login?returnTo=%2Fdeposit",
      toast,
    });
  });

  it("never follows an address that is not our sign-in, and falls back to the Unauthorized toast", () => {
    for (const signIn of ["https://evil.example/api/login", "//evil.example", "/deposit", 42]) {
      expect(readSignInRequired({ signIn, toast: { title: 1 } })).toEqual({
        signIn: "/api/login",
        toast: UNAUTHORIZED_TOAST,
      });
    }
    expect(readSignInRequired(null).signIn).toBe("/api/login");
    expect(readSignInRequired("Unauthorized").toast).toEqual(UNAUTHORIZED_TOAST);
  });
});
