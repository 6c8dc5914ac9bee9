import { expect, test } from "@playwright/test";
import { signInAs } from "./db";

test("a signed-in browser is known to the server", async ({ page, context }) => {
  await signInAs(context, "e2e-session@bidyard.test", { first_name: "Eve" });
  const response = await page.request.get("/");
  expect(response.status()).toBe(200);
  const cookies = await context.cookies();
  expect(cookies.find((c) => c.name === "__session")).toBeTruthy();
  await page.goto("/");
  await expect(page.getByRole("group", { name: "Account" }).getByTestId("user-label")).toHaveText(
    "Eve",
  );
});
