// Every image that is kept is decoded whole within the pixel limit first (record 3209): a
// decompression bomb (a 389 KB PNG of 20000×20000 pixels) and a truncated PNG are refused with a
// message naming the problem on every path that keeps one: identity documents and provider
// licences (the no-JS form, and the upload URL at confirmation, before the file is kept or can be
// attached), and listing photos (the form and the API). A real image and a PDF still pass.
import { Op } from "sequelize";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AffiliateApplication } from "~/models/affiliate.server";
import { KycDocument } from "~/models/kyc-document.server";
import { Listing } from "~/models/listing.server";
import { Upload } from "~/models/upload.server";
import type { User } from "~/models/user.server";
import { setStorageForTests } from "~/platform/storage/index.server";
import * as affiliateDocumentUrl from "~/routes/api.affiliates.document-url";
import * as documentsRoute from "~/routes/api.kyc.documents";
import * as documentUrlRoute from "~/routes/api.kyc.document-url";
import * as uploadRoute from "~/routes/api.objects.upload";
import * as vehiclesApi from "~/routes/api.vehicles";
import * as affiliatePage from "~/routes/affiliate-registration/route";
import * as kycPage from "~/routes/kyc-verification/route";
import * as postVehicle from "~/routes/post-vehicle";
import { PHOTO_MESSAGES } from "~/services/listings/messages";
import { FILE_PROBLEM_MESSAGES } from "~/utils/file-type";
import { createTestUser, requestAs } from "../support/auth";
import {
  decompressionBombPng,
  JPEG_BYTES,
  PDF_BYTES,
  PNG_BYTES,
  TRUNCATED_PNG_BYTES,
} from "../support/kyc-files";
import { call, type Handler } from "../support/routes";
import { startFilesystemStorage, type TestStorage } from "../support/storage";

const TOO_MANY_PIXELS =
  "This image is too large to read: at most 50 megapixels. Choose a smaller image or a PDF.";

let t: TestStorage;
beforeAll(async () => {
  t = await startFilesystemStorage();
  setStorageForTests(t.storage);
});
afterAll(async () => {
  setStorageForTests(undefined);
  await t.stop();
});

const BAD = [
  ["a decompression bomb (20000×20000 PNG)", () => decompressionBombPng(), "pixels"],
  ["a truncated PNG", () => TRUNCATED_PNG_BYTES, "unreadable"],
] as const;

async function keptUploads(user: User) {
  return Upload.count({ where: { userId: user.id, status: { [Op.in]: ["stored", "attached"] } } });
}

async function uploadAndConfirm(
  user: User,
  bytes: Uint8Array,
  contentType: string,
  purpose: "kyc_document" | "affiliate_licence",
) {
  const issued = await call(
    uploadRoute.action as Handler,
    await requestAs(user, "/api/objects/upload", {
      json: { size: bytes.length, contentType, purpose },
    }),
  );
  expect(issued.status).toBe(200);
  const { uploadURL, headers } = await issued.json();
  const put = await fetch(uploadURL, { method: "PUT", headers, body: bytes as BodyInit });
  expect(put.status).toBe(200);
  const [route, path] =
    purpose === "kyc_document"
      ? [documentUrlRoute, "/api/kyc/document-url"]
      : [affiliateDocumentUrl, "/api/affiliates/document-url"];
  return call(
    route.action as Handler,
    await requestAs(user, path, { method: "PUT", json: { documentURL: uploadURL } }),
  );
}

function kycForm(bytes: Uint8Array, name: string, type: string) {
  const form = new FormData();
  form.set("documentType", "passport");
  form.set("file", new Blob([bytes as BlobPart], { type }), name);
  return form;
}

function licenceForm(bytes: Uint8Array) {
  const form = new FormData();
  for (const [name, value] of Object.entries({
    companyName: "Pixel Carriers",
    "serviceTypes[1]": "export",
    businessPhone: "214-555-0100",
    businessEmail: "pixels@carriers.test",
    serviceAreas: "Texas",
    agreeToTerms: "on",
  }))
    form.set(name, value);
  form.set("licenseDocument", new Blob([bytes as BlobPart], { type: "image/png" }), "licence.png");
  return form;
}

function listingForm(bytes: Uint8Array) {
  const form = new FormData();
  for (const [name, value] of Object.entries({
    title: "Pixel Jeep",
    make: "Jeep",
    model: "Wrangler",
    year: "2017",
    price: "24000",
    condition: "good",
    city: "Denver",
  }))
    form.append(name, value);
  form.append("photos", new File([bytes as BlobPart], "car.png", { type: "image/png" }));
  return form;
}

describe.each(BAD)("%s is refused wherever it would be kept", (_name, bytesOf, problem) => {
  const message = FILE_PROBLEM_MESSAGES[problem];

  it("an identity document through the form: 400 with the message, nothing kept", async () => {
    const user = await createTestUser();
    const response = await call(
      kycPage.action as Handler,
      await requestAs(user, "/kyc-verification", {
        method: "POST",
        body: kycForm(bytesOf(), "id.png", "image/png"),
      }),
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ errors: { file: message } });
    expect(await KycDocument.count({ where: { userId: user.id } })).toBe(0);
    expect(await keptUploads(user)).toBe(0);
  });

  it("an identity document through the upload URL: refused at confirmation, never attachable", async () => {
    const user = await createTestUser();
    const confirmed = await uploadAndConfirm(user, bytesOf(), "image/png", "kyc_document");
    expect(confirmed.status).toBe(400);
    expect(await confirmed.json()).toMatchObject({ message });
    const [upload] = await Upload.findAll({ where: { userId: user.id } });
    expect(upload.status).toBe("discarded");
    expect(await t.storage.head(upload.objectKey)).toBeNull();
    expect(await t.storage.head(`incoming/${upload.objectKey}`)).toBeNull();
    const submitted = await call(
      documentsRoute.action as Handler,
      await requestAs(user, "/api/kyc/documents", {
        json: { documentType: "passport", documentUrl: `/objects/${upload.objectKey}` },
      }),
    );
    expect(submitted.status).toBe(404);
    expect(await KycDocument.count({ where: { userId: user.id } })).toBe(0);
  });

  it("a provider licence through the form and through the upload URL", async () => {
    const user = await createTestUser();
    const form = await call(
      affiliatePage.action as Handler,
      await requestAs(user, "/affiliate-registration", {
        method: "POST",
        body: licenceForm(bytesOf()),
      }),
    );
    expect(form.status).toBe(400);
    expect((await form.json()).error.licenseDocument).toEqual([message]);
    expect(await AffiliateApplication.count({ where: { userId: user.id } })).toBe(0);
    const confirmed = await uploadAndConfirm(user, bytesOf(), "image/png", "affiliate_licence");
    expect(confirmed.status).toBe(400);
    expect(await confirmed.json()).toMatchObject({ message });
    expect(await keptUploads(user)).toBe(0);
  });

  it("a listing photo through the form and the API: 400 naming the problem, no listing", async () => {
    const user = await createTestUser();
    const page = await call(
      postVehicle.action as Handler,
      await requestAs(user, "/post-vehicle", { body: listingForm(bytesOf()) }),
    );
    expect(page.status).toBe(400);
    expect(await page.json()).toMatchObject({ error: { photos: [PHOTO_MESSAGES[problem]] } });
    const form = listingForm(bytesOf());
    form.set("source", "page");
    const api = await call(
      vehiclesApi.action as Handler,
      await requestAs(user, "/api/vehicles", {
        body: form,
        headers: { Accept: "application/json" },
      }),
    );
    expect(api.status).toBe(400);
    expect(await api.json()).toMatchObject({ message: PHOTO_MESSAGES[problem] });
    expect(await Listing.count({ where: { userId: user.id } })).toBe(0);
  });
});

describe("what still passes", () => {
  it("the bomb's message names the limit; a real PNG, a real JPEG and a PDF are kept", async () => {
    expect(FILE_PROBLEM_MESSAGES.pixels).toBe(TOO_MANY_PIXELS);
    expect(decompressionBombPng().length).toBeLessThan(400_000);
    for (const [bytes, type, name] of [
      [PNG_BYTES, "image/png", "id.png"],
      [JPEG_BYTES, "image/jpeg", "id.jpg"],
      [PDF_BYTES, "application/pdf", "id.pdf"],
    ] as const) {
      const user = await createTestUser();
      const viaForm = await call(
        kycPage.action as Handler,
        await requestAs(user, "/kyc-verification", {
          method: "POST",
          body: kycForm(bytes, name, type),
        }),
      );
      expect(viaForm.status).toBe(302);
      const other = await createTestUser();
      expect((await uploadAndConfirm(other, bytes, type, "kyc_document")).status).toBe(200);
    }
  });
});
