import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { query, signInAs } from "./db";
import { ready } from "./helpers";

// a real 2×2 PNG: every kept image is decoded (record 3209)
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEElEQVQI12PQiuoCIgYIBQAcFgQ5ALm8KgAAAABJRU5ErkJggg==",
  "base64",
);
const EXE = Buffer.from([0x4d, 0x5a, 0x90, 0, 3, 0, 0, 0, 4, 0, 0, 0, 0xff, 0xff]);

const unique = (who: string) =>
  `kyc-${who}-${test.info().project.name}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@bidyard.test`;

async function uploadId(
  page: Page,
  file: string | { name: string; mimeType: string; buffer: Buffer },
) {
  await page.goto("/kyc-verification");
  await ready(page);
  await expect(page.getByRole("heading", { name: "Identity Verification" })).toBeVisible();
  await page.getByText("Passport", { exact: true }).click();
  await page.getByLabel("ID document (1 file, up to 10 MB)").setInputFiles(file);
  await page.getByRole("button", { name: "Upload Document" }).click();
}

test("a user uploads an ID, an admin approves it, and the user is verified", async ({
  page,
  context,
}) => {
  const email = unique("user");
  const lastName = `Approve${test.info().project.name}${Date.now()}`;
  await signInAs(context, email, { first_name: "Val", last_name: lastName });

  await uploadId(page, { name: "my-id.png", mimeType: "image/png", buffer: PNG });
  await expect(page.getByText("Your document has been submitted for review.")).toBeVisible();
  await expect(page.getByText("Under Review")).toBeVisible();
  await expect(page.getByRole("link", { name: "Return to Dashboard" })).toBeVisible();
  const history = page.getByRole("region", { name: "Document History" });
  await expect(history.getByRole("listitem")).toHaveCount(1);
  await expect(history.getByRole("listitem").first()).toContainText("Passport");
  await expect(history.getByRole("listitem").first()).toContainText("pending");
  // While it is reviewed the page shows the document in place of the form: no second upload, no
  // progress bar left at 100% beside an empty file field (record 3333).
  await expect(page.getByRole("heading", { name: "Document sent" })).toBeVisible();
  await expect(page.getByText(/Your Passport, sent .+, is being reviewed\./)).toBeVisible();
  await expect(page.getByRole("button", { name: "Upload Document" })).toHaveCount(0);
  await expect(page.getByLabel("ID document (1 file, up to 10 MB)")).toHaveCount(0);
  await expect(page.getByRole("progressbar", { name: "Upload progress" })).toHaveCount(0);

  await signInAs(context, unique("admin"), { role: "admin", first_name: "Ada" });
  await page.goto("/admin/kyc");
  await ready(page);
  const entry = page.getByRole("listitem", { name: `Val ${lastName}, Passport` });
  // View opens the file through a short-lived signed URL.
  const view = await entry.getByRole("link", { name: /^View/ }).getAttribute("href");
  const file = await page.request.get(view!);
  expect(file.status()).toBe(200);
  expect(file.headers()["content-type"]).toBe("image/png");
  expect(Buffer.from(await file.body()).equals(PNG)).toBe(true);
  await entry.getByRole("button", { name: /^Approve/ }).click();
  await expect(page.getByText(`${email} is now verified.`)).toBeVisible();
  await expect(page.getByRole("listitem", { name: `Val ${lastName}, Passport` })).toHaveCount(0);

  await signInAs(context, email);
  await page.goto("/kyc-verification");
  await expect(page.getByText("Verification Complete")).toBeVisible();
  await expect(page.getByText("Your identity has been verified successfully!")).toBeVisible();
  await expect(page.getByRole("link", { name: "Continue to Dashboard" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Upload Document" })).toHaveCount(0);
  const [row] = await query<{ verified: boolean }>("select verified from users where email = $1", [
    email,
  ]);
  expect(row.verified).toBe(true);
});

test("a rejected document shows its reason and the user can upload again", async ({
  page,
  context,
}) => {
  const email = unique("rejected");
  const lastName = `Reject${test.info().project.name}${Date.now()}`;
  await signInAs(context, email, { first_name: "Rae", last_name: lastName });
  await uploadId(page, { name: "id.png", mimeType: "image/png", buffer: PNG });
  await expect(page.getByText("Under Review")).toBeVisible();

  await signInAs(context, unique("admin"), { role: "admin" });
  await page.goto("/admin/kyc");
  await ready(page);
  const entry = page.getByRole("listitem", { name: `Rae ${lastName}, Passport` });
  await entry.getByLabel("Reason for rejection").fill("The photo is blurred.");
  await entry.getByRole("button", { name: /^Reject/ }).click();
  await expect(page.getByText(`${email} has been asked to upload a new document.`)).toBeVisible();

  await signInAs(context, email);
  await page.goto("/kyc-verification");
  await expect(page.getByText("Document Rejected")).toBeVisible();
  await expect(page.getByText("Reason: The photo is blurred.").first()).toBeVisible();
  await expect(page.getByRole("heading", { name: "Upload a New Document" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Upload Document" })).toBeVisible();
});

test("an executable renamed .jpg is refused with a clear message", async ({ page, context }) => {
  const email = unique("exe");
  await signInAs(context, email);
  await uploadId(page, { name: "photo.jpg", mimeType: "image/jpeg", buffer: EXE });
  await expect(
    page.getByText("Only JPG, PNG or PDF files are accepted. This file is none of them.").first(),
  ).toBeVisible();
  const rows = await query(
    "select k.id from kyc_documents k join users u on u.id = k.user_id where u.email = $1",
    [email],
  );
  expect(rows).toEqual([]);
});

test("a file over 10 MB is refused with a clear message", async ({ page, context }) => {
  const email = unique("big");
  await signInAs(context, email);
  // Handed to the browser by path: a buffer would cross to the browser in base64.
  const file = path.join(os.tmpdir(), `bidyard-11mb-${process.pid}-${Date.now()}.png`);
  const big = Buffer.alloc(11 * 1024 * 1024);
  PNG.copy(big);
  fs.writeFileSync(file, big);
  try {
    await uploadId(page, file);
  } finally {
    fs.rmSync(file, { force: true });
  }
  await expect(
    page
      .getByText("The file is larger than 10 MB (10,485,760 bytes). Choose a smaller file.")
      .first(),
  ).toBeVisible();
  const rows = await query(
    "select x.id from uploads x join users u on u.id = x.user_id where u.email = $1",
    [email],
  );
  expect(rows).toEqual([]);
});
