// Which payment gateway a test file's money goes through.
import { beforeAll } from "vitest";
import { resetEnvForTests } from "~/platform/env.server";

/**
 * The built-in test gateway (no PayPal credentials, so the app picks it), from before the file's
 * first test: payments approved or declined by the test, nothing leaves the machine.
 */
export function withTestGateway() {
  beforeAll(() => {
    delete process.env.PAYPAL_CLIENT_ID;
    delete process.env.PAYPAL_CLIENT_SECRET;
    resetEnvForTests();
  });
}
