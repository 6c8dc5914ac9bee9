import path from "node:path";

export const E2E_SESSION_SECRET = "e2e-session-secret-0123456789abcdefghij";

/** Where the e2e server leaves what the tests need to know (its database). */
export function e2eStateFile(port: number) {
  return path.resolve(".data", `e2e-${port}.json`);
}
