// The upload calls and the no-JS form, against both storage drivers.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KycDocument } from "~/models/kyc-document.server";
import { Upload } from "~/models/upload.server";
import type { User } from "~/models/user.server";
import { setStorageForTests } from "~/platform/storage/index.server";
import * as documentsRoute from "~/routes/api.kyc.documents";
import * as documentUrlRoute from "~/routes/api.kyc.document-url";
import * as uploadRoute from "~/routes/api.objects.upload";
import * as kycPage from "~/routes/kyc-verification/route";
import { FILE_PROBLEM_MESSAGES } from "~/utils/file-type";
import { createTestUser, requestAs } from "../support/auth";
import { call, type Handler } from "../support/routes";
import {
  bigPng,
  ELEVEN_MB,
  EXE_BYTES,
  JPEG_BYTES,
  PDF_BYTES,
  PNG_BYTES,
  TRUNCATED_PDF_BYTES,
} from "../support/kyc-files";
import { startFilesystemStorage, startS3rverStorage, type TestStorage } from "../support/storage";

async function issue(user: User, size: number, contentType: string) {
  return call(
    uploadRoute.action as Handler,
    await requestAs(user, "/api/objects/upload", { json: { size, contentType } }),
  );
}

async function confirm(user: User, documentURL: string) {
  return call(
    documentUrlRoute.action as Handler,
    await requestAs(user, "/api/kyc/document-url", { method: "PUT", json: { documentURL } }),
  );
}

async function submit(user: User, documentType: string, documentUrl: string) {
  return call(
    documentsRoute.action as Handler,
    await requestAs(user, "/api/kyc/documents", { json: { documentType, documentUrl } }),
  );
}

async function putFile(uploadURL: string, headers: Record<string, string>, body: Uint8Array) {
  return fetch(uploadURL, { method: "PUT", headers, body: body as BodyInit });
}

/** The whole JS path; returns every answer along the way. */
async function uploadWithJs(
  user: User,
  bytes: Uint8Array,
  declaredType: string,
  documentType = "passport",
) {
  const issued = await issue(user, bytes.length, declaredType);
  if (issued.status !== 200) return { issued };
  const { uploadURL, headers } = await issued.json();
  const put = await putFile(uploadURL, headers, bytes);
  const confirmed = await confirm(user, uploadURL);
  if (confirmed.status !== 200) return { issued, put, confirmed, uploadURL };
  const { objectPath } = await confirmed.json();
  const submitted = await submit(user, documentType, objectPath);
  return { issued, put, confirmed, submitted, uploadURL, objectPath };
}

function noJsForm(
  documentType: string | null,
  file: Uint8Array | null,
  name = "id.png",
  type = "image/png",
) {
  const form = new FormData();
  if (documentType) form.set("documentType", documentType);
  form.set("file", new Blob(file ? [file as BlobPart] : [], { type }), file ? name : "");
  return form;
}

async function postNoJs(user: User, form: FormData) {
  return call(
    kycPage.action as Handler,
    await requestAs(user, "/kyc-verification", { method: "POST", body: form }),
  );
}

describe.each([
  ["filesystem", startFilesystemStorage],
  ["s3", startS3rverStorage],
])("KYC uploads on the %s driver", (_name, start) => {
  let t: TestStorage;
  beforeAll(async () => {
    t = await start();
    setStorageForTests(t.storage);
  });
  afterAll(async () => {
    setStorageForTests(undefined);
    await t.stop();
  });

  it("with JS: upload URL, one PUT, objectPath, then a pending document", async () => {
    const user = await createTestUser();
    const result = await uploadWithJs(user, PNG_BYTES, "image/png", "state_id");
    expect(result.put!.status).toBe(200);
    expect(result.objectPath).toMatch(/^\/objects\/kyc\/[A-Za-z0-9_-]{32}$/);
    expect(result.submitted!.status).toBe(201);
    const document = await result.submitted!.json();
    expect(document).toMatchObject({
      documentType: "state_id",
      status: "pending",
      documentUrl: result.objectPath,
    });

    const list = await call(
      documentsRoute.loader as Handler,
      await requestAs(user, "/api/kyc/documents"),
    );
    expect((await list.json()).map((d: { id: string }) => d.id)).toEqual([document.id]);

    // The upload URL was for one object: it cannot be confirmed or submitted twice.
    expect((await submit(user, "passport", result.objectPath!)).status).toBe(404);
  });

  it("with JS: a JPEG and a PDF are accepted too", async () => {
    for (const [bytes, type] of [
      [JPEG_BYTES, "image/jpeg"],
      [PDF_BYTES, "application/pdf"],
    ] as const) {
      const user = await createTestUser();
      const result = await uploadWithJs(user, bytes, type);
      expect(result.submitted?.status).toBe(201);
    }
  });

  it("with JS: refuses 11 MB and empty files before handing out a URL", async () => {
    const user = await createTestUser();
    const big = await issue(user, ELEVEN_MB, "image/png");
    expect(big.status).toBe(400);
    expect((await big.json()).message).toBe(FILE_PROBLEM_MESSAGES.too_large);
    const empty = await issue(user, 0, "image/png");
    expect(empty.status).toBe(400);
    expect((await empty.json()).message).toBe(FILE_PROBLEM_MESSAGES.empty);
    const other = await issue(user, 100, "application/x-msdownload");
    expect(other.status).toBe(400);
    expect((await other.json()).message).toBe(FILE_PROBLEM_MESSAGES.type);
    expect(await Upload.count({ where: { userId: user.id } })).toBe(0);
  });

  it("with JS: a client that declares a small file cannot PUT 11 MB", async () => {
    const user = await createTestUser();
    const issued = await issue(user, PNG_BYTES.length, "image/png");
    const { uploadURL, headers } = await issued.json();
    const put = await putFile(uploadURL, headers, bigPng(ELEVEN_MB));
    expect(put.status).toBeGreaterThanOrEqual(400);
    const confirmed = await confirm(user, uploadURL);
    expect(confirmed.status).toBe(400);
    expect(await KycDocument.count({ where: { userId: user.id } })).toBe(0);
  });

  it("with JS: an executable renamed .jpg is refused and deleted", async () => {
    const user = await createTestUser();
    const result = await uploadWithJs(user, EXE_BYTES, "image/jpeg");
    expect(result.put!.status).toBe(200);
    expect(result.confirmed!.status).toBe(400);
    expect((await result.confirmed!.json()).message).toBe(FILE_PROBLEM_MESSAGES.type);
    const upload = await Upload.findOne({ where: { userId: user.id } });
    expect(upload!.status).toBe("discarded");
    expect(await t.storage.head(upload!.objectKey)).toBeNull();
    expect(await KycDocument.count({ where: { userId: user.id } })).toBe(0);
  });

  it("with JS: a PNG declared as PDF is refused and deleted", async () => {
    const user = await createTestUser();
    const result = await uploadWithJs(user, PNG_BYTES, "application/pdf");
    expect(result.confirmed!.status).toBe(400);
    expect((await result.confirmed!.json()).message).toBe(FILE_PROBLEM_MESSAGES.mismatch);
    const upload = await Upload.findOne({ where: { userId: user.id } });
    expect(await t.storage.head(upload!.objectKey)).toBeNull();
  });

  it("with JS: a truncated PDF header is refused", async () => {
    const user = await createTestUser();
    const result = await uploadWithJs(user, TRUNCATED_PDF_BYTES, "application/pdf");
    expect(result.confirmed!.status).toBe(400);
    expect((await result.confirmed!.json()).message).toBe(FILE_PROBLEM_MESSAGES.type);
  });

  it("without JS: the form streams a good file to storage and redirects with the toast", async () => {
    const user = await createTestUser();
    const response = await postNoJs(user, noJsForm("license", PNG_BYTES));
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/kyc-verification");
    expect(response.headers.get("set-cookie")).toContain("__toast");
    const [document] = await KycDocument.findAll({ where: { userId: user.id } });
    expect(document).toMatchObject({
      documentType: "license",
      status: "pending",
      contentType: "image/png",
    });
    expect(await t.storage.head(document.objectKey)).toMatchObject({
      size: PNG_BYTES.length,
      contentType: "image/png",
    });
  });

  it.each([
    ["an 11 MB file", bigPng(ELEVEN_MB), "id.png", "image/png", "too_large"],
    ["an empty file", new Uint8Array(0), "id.png", "image/png", "empty"],
    ["an executable renamed .jpg", EXE_BYTES, "id.jpg", "image/jpeg", "type"],
    ["a truncated PDF header", TRUNCATED_PDF_BYTES, "id.pdf", "application/pdf", "type"],
  ] as const)(
    "without JS: %s gets a clear message and nothing is stored",
    async (_label, bytes, filename, type, problem) => {
      const user = await createTestUser();
      const form = new FormData();
      form.set("documentType", "passport");
      form.set("file", new Blob([bytes as BlobPart], { type }), filename);
      const response = await postNoJs(user, form);
      expect(response.status).toBe(400);
      const body = await response.json();
      expect(body.errors.file).toBe(FILE_PROBLEM_MESSAGES[problem]);
      expect(await Upload.count({ where: { userId: user.id } })).toBe(0);
      expect(await KycDocument.count({ where: { userId: user.id } })).toBe(0);
    },
  );

  it("without JS: a PNG declared as PDF is refused; one of unknown declared type is judged by content", async () => {
    const user = await createTestUser();
    const response = await postNoJs(
      user,
      noJsForm("passport", PNG_BYTES, "id.pdf", "application/pdf"),
    );
    expect(response.status).toBe(400);
    expect((await response.json()).errors.file).toBe(FILE_PROBLEM_MESSAGES.mismatch);
    expect(await Upload.count({ where: { userId: user.id } })).toBe(0);

    const unknown = await postNoJs(
      user,
      noJsForm("passport", PNG_BYTES, "scan", "application/octet-stream"),
    );
    expect(unknown.status).toBe(302);
    const [document] = await KycDocument.findAll({ where: { userId: user.id } });
    expect(document.contentType).toBe("image/png");
  });

  it("without JS: no file, or no document type, is a 400 and nothing is kept", async () => {
    const user = await createTestUser();
    const noFile = await postNoJs(user, noJsForm("passport", null));
    expect(noFile.status).toBe(400);
    expect((await noFile.json()).errors.file).toBe(FILE_PROBLEM_MESSAGES.missing);
    const noType = await postNoJs(user, noJsForm(null, PNG_BYTES));
    expect(noType.status).toBe(400);
    expect((await noType.json()).errors.documentType).toMatch(/document type/);
    const uploads = await Upload.findAll({ where: { userId: user.id } });
    expect(uploads.map((u) => u.status)).toEqual(["discarded"]);
    expect(await t.storage.head(uploads[0].objectKey)).toBeNull();
  });
});
