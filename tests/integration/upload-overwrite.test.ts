// A one-use upload URL written twice: a slow harmful PUT started first, a harmless one sent while
// it streams, the upload confirmed, then the slow one finishing. What the upload keeps must be the
// bytes that were checked, on both storage drivers (docs/decisions/1302-uploads-checked-bytes-are-kept.md).
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KycDocument } from "~/models/kyc-document.server";
import { Upload } from "~/models/upload.server";
import type { User } from "~/models/user.server";
import { setStorageForTests } from "~/platform/storage/index.server";
import * as documentUrlRoute from "~/routes/api.kyc.document-url";
import * as uploadRoute from "~/routes/api.objects.upload";
import { createTestUser, requestAs } from "../support/auth";
import { call, type Handler } from "../support/routes";
import { startFilesystemStorage, startS3rverStorage, type TestStorage } from "../support/storage";
import { waitFor } from "../support/wait";

const HARMFUL = Buffer.from(
  "%PDF-1.7\n1 0 obj\n<< /Type /Catalog /OpenAction << /S /JavaScript /JS (app.alert(1)) >> >>\nendobj\n%%EOF\n",
);
const base = "%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\n";
const HARMLESS = Buffer.from(
  `${base}%${"x".repeat(HARMFUL.length - base.length - "%\n%%EOF\n".length)}\n%%EOF\n`,
);

async function issue(user: User) {
  const response = await call(
    uploadRoute.action as Handler,
    await requestAs(user, "/api/objects/upload", {
      json: { size: HARMFUL.length, contentType: "application/pdf" },
    }),
  );
  expect(response.status).toBe(200);
  return (await response.json()) as { uploadURL: string; headers: Record<string, string> };
}

async function confirm(user: User, documentURL: string) {
  return call(
    documentUrlRoute.action as Handler,
    await requestAs(user, "/api/kyc/document-url", { method: "PUT", json: { documentURL } }),
  );
}

const put = (url: string, headers: Record<string, string>, body: Uint8Array) =>
  fetch(url, { method: "PUT", headers, body: body as BodyInit });

/** A PUT that sends its first half now and the rest when told to. */
function slowPut(url: string, headers: Record<string, string>, body: Buffer) {
  const request = http.request(url, {
    method: "PUT",
    headers: { ...headers, "Content-Length": String(body.length) },
  });
  const answer = new Promise<number>((resolve, reject) => {
    request.on("response", (response) => {
      response.resume();
      resolve(response.statusCode!);
    });
    request.on("error", reject);
  });
  request.write(body.subarray(0, body.length / 2));
  return {
    finish: () => {
      request.end(body.subarray(body.length / 2));
      return answer;
    },
  };
}

describe.each([
  ["filesystem", startFilesystemStorage],
  ["s3", startS3rverStorage],
])("a one-use upload URL on the %s driver", (driver, start) => {
  let t: TestStorage;
  beforeAll(async () => {
    t = await start();
    setStorageForTests(t.storage);
  });
  afterAll(async () => {
    setStorageForTests(undefined);
    await t.stop();
  });

  async function kept(user: User) {
    const upload = (await Upload.findOne({ where: { userId: user.id } }))!;
    const info = await t.storage.head(upload.objectKey);
    return info ? Buffer.from(await t.storage.readRange(upload.objectKey, 0, info.size)) : null;
  }

  it("a slow harmful PUT finishing after the check never replaces the checked file", async () => {
    const user = await createTestUser();
    const { uploadURL, headers } = await issue(user);
    const slow = slowPut(uploadURL, headers, HARMFUL);
    // the slow PUT has started and is streaming: it has reached the store
    await waitFor(() => t.reached(uploadURL), {
      what: "the slow PUT at the store",
      timeout: 5_000,
    });
    const fast = await put(uploadURL, headers, HARMLESS);
    // The filesystem driver claims the URL before reading a body: the second PUT is refused.
    if (driver === "filesystem") expect(fast.status).toBe(409);
    const first = await confirm(user, uploadURL);
    await slow.finish().catch(() => 0); // the attacker's own answer does not matter
    const second = await confirm(user, uploadURL);

    // Whatever the order, nothing harmful is kept: either the harmless file that was checked,
    // or nothing at all.
    const bytes = await kept(user);
    if (bytes) expect(bytes.equals(HARMLESS)).toBe(true);
    else expect(second.status).toBe(400);
    if (driver === "s3") {
      // s3rver (like S3) lets a presigned URL be used until it expires: the second PUT landed,
      // was checked and kept; the slow one finished later, outside what is kept.
      expect(first.status).toBe(200);
      expect(bytes?.equals(HARMLESS)).toBe(true);
    }
    expect(await KycDocument.count({ where: { userId: user.id } })).toBe(0);
  });

  it("a PUT after the confirmation changes nothing that is kept", async () => {
    const user = await createTestUser();
    const { uploadURL, headers } = await issue(user);
    expect((await put(uploadURL, headers, HARMLESS)).status).toBe(200);
    expect((await confirm(user, uploadURL)).status).toBe(200);
    const late = await put(uploadURL, headers, HARMFUL);
    if (driver === "filesystem") expect(late.status).toBe(409);
    expect((await kept(user))?.equals(HARMLESS)).toBe(true);
    // Confirming again answers the same upload, still the checked bytes.
    expect((await confirm(user, uploadURL)).status).toBe(200);
    expect((await kept(user))?.equals(HARMLESS)).toBe(true);
  });
});
