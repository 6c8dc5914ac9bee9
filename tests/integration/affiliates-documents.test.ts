// The optional licence document: the JS path (upload URL, PUT, confirm) and the no-JS multipart form.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AffiliateApplication } from "~/models/affiliate.server";
import { Upload } from "~/models/upload.server";
import type { User } from "~/models/user.server";
import * as registration from "~/routes/affiliate-registration/route";
import * as apiApply from "~/routes/api.affiliates";
import * as documentUrlRoute from "~/routes/api.affiliates.document-url";
import * as uploadRoute from "~/routes/api.objects.upload";
import { setStorageForTests } from "~/platform/storage/index.server";
import { FILE_PROBLEM_MESSAGES } from "~/utils/file-type";
import { createTestUser, requestAs } from "../support/auth";
import { EXE_BYTES, PDF_BYTES, PNG_BYTES } from "../support/kyc-files";
import { call, type Handler } from "../support/routes";
import { startFilesystemStorage, type TestStorage } from "../support/storage";

let t: TestStorage;
beforeAll(async () => {
  t = await startFilesystemStorage();
  setStorageForTests(t.storage);
});
afterAll(async () => {
  setStorageForTests(undefined);
  await t.stop();
});

const fields = {
  companyName: "Doc Carriers",
  "serviceTypes[1]": "export",
  businessPhone: "214-555-0100",
  businessEmail: "docs@carriers.test",
  serviceAreas: "Texas, Ohio",
  agreeToTerms: "on",
};

async function uploadWithJs(user: User, bytes: Uint8Array, type: string) {
  const issued = await call(
    uploadRoute.action as Handler,
    await requestAs(user, "/api/objects/upload", {
      json: { size: bytes.length, contentType: type, purpose: "affiliate_licence" },
    }),
  );
  expect(issued.status).toBe(200);
  const { uploadURL, headers } = await issued.json();
  const put = await fetch(uploadURL, { method: "PUT", headers, body: bytes as BodyInit });
  expect(put.status).toBe(200);
  return call(
    documentUrlRoute.action as Handler,
    await requestAs(user, "/api/affiliates/document-url", {
      method: "PUT",
      json: { documentURL: uploadURL },
    }),
  );
}

function multipart(file: { bytes: Uint8Array; name: string; type: string } | null, extra = {}) {
  const form = new FormData();
  for (const [name, value] of Object.entries({ ...fields, ...extra })) form.set(name, value);
  form.set(
    "licenseDocument",
    new Blob(file ? [file.bytes as BlobPart] : [], {
      type: file?.type ?? "application/octet-stream",
    }),
    file ? file.name : "",
  );
  return form;
}

async function postForm(user: User, form: FormData) {
  return call(
    registration.action as Handler,
    await requestAs(user, "/affiliate-registration", { method: "POST", body: form }),
  );
}

describe("the licence document", () => {
  it("with JS: uploaded with its own purpose, confirmed, attached to the application", async () => {
    const user = await createTestUser();
    const confirmed = await uploadWithJs(user, PDF_BYTES, "application/pdf");
    expect(confirmed.status).toBe(200);
    const { objectPath } = await confirmed.json();
    expect(objectPath).toMatch(/^\/objects\/affiliate\/[A-Za-z0-9_-]{32}$/);

    // Someone else cannot claim the same file as theirs.
    const thief = await createTestUser();
    const stolen = await call(
      apiApply.action as Handler,
      await requestAs(thief, "/api/affiliates", {
        json: { ...fields, serviceTypes: ["export"], licenseDocumentUrl: objectPath },
      }),
    );
    expect(stolen.status).toBe(400);

    const created = await call(
      apiApply.action as Handler,
      await requestAs(user, "/api/affiliates", {
        json: { ...fields, serviceTypes: ["export"], licenseDocumentUrl: objectPath },
      }),
    );
    expect(created.status).toBe(201);
    expect((await created.json()).licenseDocumentUrl).toBe(objectPath);
    const upload = await Upload.findOne({ where: { objectKey: objectPath.slice(9) } });
    expect(upload).toMatchObject({ status: "attached", purpose: "affiliate_licence" });
  });

  it("with JS: a file that is not a PDF, JPG or PNG by content is refused at confirm", async () => {
    const user = await createTestUser();
    const confirmed = await uploadWithJs(user, PNG_BYTES, "application/pdf");
    expect(confirmed.status).toBe(400);
  });

  it("without JS: the multipart form stores the file and files the application", async () => {
    const user = await createTestUser();
    const response = await postForm(
      user,
      multipart({ bytes: PDF_BYTES, name: "licence.pdf", type: "application/pdf" }),
    );
    expect(response.status).toBe(302);
    const application = (await AffiliateApplication.findOne({ where: { userId: user.id } }))!;
    expect(application.serviceTypes).toEqual(["export"]);
    expect(application.licenseDocumentUrl).toMatch(/^\/objects\/affiliate\//);
    const upload = await Upload.findOne({ where: { userId: user.id } });
    expect(upload!.status).toBe("attached");
  });

  it("without JS: no file is fine; a bad file or a bad form stores nothing", async () => {
    const plain = await createTestUser();
    expect((await postForm(plain, multipart(null))).status).toBe(302);
    expect(
      (await AffiliateApplication.findOne({ where: { userId: plain.id } }))!.licenseDocumentUrl,
    ).toBeNull();

    const user = await createTestUser();
    const exe = await postForm(
      user,
      multipart({ bytes: EXE_BYTES, name: "licence.pdf", type: "application/pdf" }),
    );
    expect(exe.status).toBe(400);
    expect((await exe.json()).error.licenseDocument).toEqual([FILE_PROBLEM_MESSAGES.type]);

    const badForm = await postForm(
      user,
      multipart(
        { bytes: PDF_BYTES, name: "licence.pdf", type: "application/pdf" },
        {
          companyName: "",
        },
      ),
    );
    expect(badForm.status).toBe(400);
    expect((await badForm.json()).error.companyName).toEqual(["Company name is required"]);
    expect(await AffiliateApplication.count({ where: { userId: user.id } })).toBe(0);
    const uploads = await Upload.findAll({ where: { userId: user.id } });
    expect(uploads.every((u) => u.status === "discarded")).toBe(true);
  });
});
