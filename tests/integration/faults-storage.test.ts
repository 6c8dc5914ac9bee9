// File storage down (S3 unreachable, S3 hanging, an upload folder that cannot be written, a disk
// failing half-way): KYC and listing photo uploads answer a clear 503 within a bound, nothing is
// recorded in the database (no document, no listing, no photo rows, no upload claimed as stored),
// no object is left behind for a refused post, and the same flows work again once storage is back.
import sharp from "sharp";
import { Op } from "sequelize";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { KycDocument } from "~/models/kyc-document.server";
import { Listing, ListingPhoto } from "~/models/listing.server";
import { Upload } from "~/models/upload.server";
import type { User } from "~/models/user.server";
import * as documentsRoute from "~/routes/api.kyc.documents";
import * as documentUrlRoute from "~/routes/api.kyc.document-url";
import * as uploadRoute from "~/routes/api.objects.upload";
import * as vehiclesApi from "~/routes/api.vehicles";
import * as kycPage from "~/routes/kyc-verification/route";
import * as photoRoute from "~/routes/listing-photos.$id";
import * as postVehicle from "~/routes/post-vehicle";
import * as vehiclePage from "~/routes/vehicle.$id/route";
import type { ObjectStorage } from "~/platform/storage/index.server";
import { setStorageForTests } from "~/platform/storage/index.server";
import { discardStaleUploads } from "~/platform/uploads.server";
import { createTestUser, requestAs } from "../support/auth";
import {
  failingAfter,
  startHangingS3,
  startRestartableS3rver,
  startUnwritableFolder,
} from "../support/faults";
import { PNG_BYTES } from "../support/kyc-files";
import { call, type Handler } from "../support/routes";
import { startFilesystemStorage, type TestStorage } from "../support/storage";

const KYC_DOWN = "File storage is unavailable right now. Please try again in a few minutes.";
const PHOTOS_DOWN = "Photos cannot be saved right now. Please try again in a few minutes.";

const FIELDS = {
  title: "Storage fault Jeep",
  make: "Jeep",
  model: "Wrangler",
  year: "2017",
  price: "24000",
  condition: "good",
  city: "Denver",
};

let photoBytes: Uint8Array;
beforeAll(async () => {
  photoBytes = new Uint8Array(
    await sharp({
      create: { width: 640, height: 480, channels: 3, background: { r: 20, g: 90, b: 160 } },
    })
      .jpeg()
      .toBuffer(),
  );
});
afterEach(() => setStorageForTests(undefined));

const photo = () => new File([photoBytes as BlobPart], "car.jpg", { type: "image/jpeg" });

function multipart(fields: Record<string, string>, files: File[]) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  for (const file of files) form.append("photos", file);
  return form;
}

/**
 * The answer of `work`. A call to the S3 that never answers ends only by its own timeout, so its
 * answer arriving at all is the bound (a missing timeout fails the test by the test's timeout).
 */
async function answerOf(work: () => Promise<Response>) {
  return { response: await work() };
}

function kycNoJs(user: User) {
  return async () => {
    const form = new FormData();
    form.set("documentType", "passport");
    form.set("file", new Blob([PNG_BYTES as BlobPart], { type: "image/png" }), "id.png");
    return call(
      kycPage.action as Handler,
      await requestAs(user, "/kyc-verification", { method: "POST", body: form }),
    );
  };
}

async function issue(user: User) {
  const issued = await call(
    uploadRoute.action as Handler,
    await requestAs(user, "/api/objects/upload", {
      json: { size: PNG_BYTES.length, contentType: "image/png" },
    }),
  );
  expect(issued.status).toBe(200);
  return (await issued.json()) as { uploadURL: string; headers: Record<string, string> };
}

function confirm(user: User, documentURL: string) {
  return async () =>
    call(
      documentUrlRoute.action as Handler,
      await requestAs(user, "/api/kyc/document-url", { method: "PUT", json: { documentURL } }),
    );
}

function postListing(user: User, files: File[]) {
  return async () =>
    call(
      postVehicle.action as Handler,
      await requestAs(user, "/post-vehicle", { body: multipart(FIELDS, files) }),
    );
}

function postListingApi(user: User, files: File[]) {
  return async () =>
    call(
      vehiclesApi.action as Handler,
      await requestAs(user, "/api/vehicles", {
        body: multipart({ ...FIELDS, source: "page" }, files),
        headers: { Accept: "application/json" },
      }),
    );
}

function addPhotos(user: User, listingId: string) {
  return async () =>
    call(
      vehiclePage.action as Handler,
      await requestAs(user, `/vehicle/${listingId}`, {
        body: multipart({ ...FIELDS, title: "Changed title", intent: "update" }, [photo()]),
      }),
      { id: listingId },
    );
}

function readPhoto(url: string) {
  return async () => {
    const parsed = new URL(url, "http://localhost:3000");
    return call(photoRoute.loader as Handler, new Request(parsed), {
      id: parsed.pathname.split("/").pop()!,
    });
  };
}

async function expectNothingRecordedFor(user: User) {
  expect(await KycDocument.count({ where: { userId: user.id } })).toBe(0);
  expect(
    await Upload.count({ where: { userId: user.id, status: { [Op.in]: ["stored", "attached"] } } }),
  ).toBe(0);
  expect(await Listing.count({ where: { userId: user.id } })).toBe(0);
}

/** A listing with one photo, posted while storage worked. */
async function listingWithPhoto(user: User) {
  const posted = await postListing(user, [photo()])();
  expect(posted.status).toBe(302);
  const id = posted.headers.get("location")!.split("/").pop()!;
  const [stored] = await ListingPhoto.findAll({ where: { listingId: id } });
  return { id, photo: stored };
}

describe("S3 unreachable, then back (s3rver stopped and started again)", () => {
  let s3: Awaited<ReturnType<typeof startRestartableS3rver>>;
  beforeAll(async () => {
    s3 = await startRestartableS3rver();
  });
  afterAll(async () => {
    await s3?.remove();
  });

  it("KYC with JS: a file PUT before the outage is confirmed after it, never half-recorded", async () => {
    setStorageForTests(s3.storage);
    const user = await createTestUser();
    const { uploadURL, headers } = await issue(user);
    const put = await fetch(uploadURL, { method: "PUT", headers, body: PNG_BYTES as BodyInit });
    expect(put.status).toBe(200);

    await s3.stop();
    const { response: down } = await answerOf(confirm(user, uploadURL));
    expect(down.status).toBe(503);
    expect(await down.json()).toMatchObject({ message: KYC_DOWN });
    // the claim is still only "issued": nothing treats the file as checked or attached
    expect((await Upload.findAll({ where: { userId: user.id } })).map((u) => u.status)).toEqual([
      "issued",
    ]);
    // the sweeper cannot delete while storage is down: it keeps the claim for its next run
    await expect(discardStaleUploads(new Date(Date.now() + 3 * 3600_000))).rejects.toThrow();
    expect((await Upload.findOne({ where: { userId: user.id } }))!.status).toBe("issued");
    await expectNothingRecordedFor(user);

    await s3.start();
    const back = await confirm(user, uploadURL)();
    expect(back.status).toBe(200);
    const { objectPath } = (await back.json()) as { objectPath: string };
    const submitted = await call(
      documentsRoute.action as Handler,
      await requestAs(user, "/api/kyc/documents", {
        json: { documentType: "passport", documentUrl: objectPath },
      }),
    );
    expect(submitted.status).toBe(201);
    expect(await KycDocument.count({ where: { userId: user.id } })).toBe(1);
  });

  it("KYC without JS and listing photos: 503 while down, the same posts work once it is back", async () => {
    setStorageForTests(s3.storage);
    const user = await createTestUser();
    const { id, photo: stored } = await listingWithPhoto(user);

    await s3.stop();
    const kyc = await answerOf(kycNoJs(user));
    expect(kyc.response.status).toBe(503);
    expect(await kyc.response.json()).toMatchObject({ errors: { file: KYC_DOWN } });
    const page = await answerOf(postListing(user, [photo()]));
    expect(page.response.status).toBe(503);
    expect(JSON.stringify(await page.response.json())).toContain(PHOTOS_DOWN);
    expect((await readPhoto(stored.url)()).status).toBe(503);
    expect(await KycDocument.count({ where: { userId: user.id } })).toBe(0);
    expect(await Upload.count({ where: { userId: user.id } })).toBe(0);
    expect(await Listing.count({ where: { userId: user.id } })).toBe(1);
    expect(await ListingPhoto.count({ where: { listingId: id } })).toBe(1);

    await s3.start();
    expect((await kycNoJs(user)()).status).toBe(302);
    expect(await KycDocument.count({ where: { userId: user.id } })).toBe(1);
    expect((await postListing(user, [photo()])()).status).toBe(302);
    expect(await Listing.count({ where: { userId: user.id } })).toBe(2);
    expect((await readPhoto(stored.url)()).status).toBe(200);
  });
});

type Broken = { storage: ObjectStorage; stop: () => Promise<void> };

describe.each([
  ["S3 that accepts connections and never answers", startHangingS3],
  ["an upload folder that cannot be written", startUnwritableFolder],
] as const)("storage down: %s", (_name, startBroken) => {
  let broken: Broken;
  let working: TestStorage;
  beforeAll(async () => {
    broken = await startBroken();
    working = await startFilesystemStorage();
  });
  afterAll(async () => {
    await broken?.stop();
    await working?.stop();
  });

  it("KYC without JS: 503 with the message, within the bound; no upload, no document", async () => {
    setStorageForTests(broken.storage);
    const user = await createTestUser();
    const { response } = await answerOf(kycNoJs(user));
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ errors: { file: KYC_DOWN } });
    expect(await Upload.count({ where: { userId: user.id } })).toBe(0);
    await expectNothingRecordedFor(user);
  });

  it("KYC with JS: the file cannot be checked, so it is not confirmed: 503, no document", async () => {
    setStorageForTests(broken.storage);
    const user = await createTestUser();
    const { uploadURL } = await issue(user);
    const { response } = await answerOf(confirm(user, uploadURL));
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ message: KYC_DOWN });
    expect((await Upload.findOne({ where: { userId: user.id } }))!.status).toBe("issued");
    await expectNothingRecordedFor(user);
  });

  it("Post Vehicle with photos (the form and the API): 503 with the message; no listing", async () => {
    setStorageForTests(broken.storage);
    const user = await createTestUser();
    const page = await answerOf(postListing(user, [photo(), photo()]));
    expect(page.response.status).toBe(503);
    expect(await page.response.json()).toMatchObject({ error: { photos: [PHOTOS_DOWN] } });
    const api = await answerOf(postListingApi(user, [photo()]));
    expect(api.response.status).toBe(503);
    expect(await api.response.json()).toMatchObject({ message: PHOTOS_DOWN });
    await expectNothingRecordedFor(user);
  });

  it("an owner adding photos or reading them: 503; the listing and its photos unchanged", async () => {
    setStorageForTests(working.storage);
    const user = await createTestUser();
    const { id, photo: stored } = await listingWithPhoto(user);

    setStorageForTests(broken.storage);
    const edit = await answerOf(addPhotos(user, id));
    expect(edit.response.status).toBe(503);
    expect(await edit.response.json()).toMatchObject({ error: { photos: [PHOTOS_DOWN] } });
    const listing = await Listing.findByPk(id, { rejectOnEmpty: true });
    expect(listing.title).toBe(FIELDS.title);
    expect((await ListingPhoto.findAll({ where: { listingId: id } })).map((p) => p.id)).toEqual([
      stored.id,
    ]);
    const read = await answerOf(readPhoto(stored.url));
    expect(read.response.status).toBe(503);
    expect(read.response.headers.get("retry-after")).toBe("30");
  });
});

describe("storage failing half-way through a listing's photos", () => {
  let working: TestStorage;
  beforeAll(async () => {
    working = await startFilesystemStorage();
  });
  afterAll(async () => working?.stop());

  it("the photos stored before the failure are deleted again: no listing, no rows, no objects", async () => {
    // Three photos = six puts (picture and thumbnail each); the disk fails on the fourth.
    const seen: string[] = [];
    const recording: ObjectStorage = {
      ...working.storage,
      put: async (key, body, options) => {
        seen.push(key);
        return working.storage.put(key, body, options);
      },
    };
    setStorageForTests(failingAfter(recording, 3));
    const user = await createTestUser();
    const { response } = await answerOf(postListing(user, [photo(), photo(), photo()]));
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ error: { photos: [PHOTOS_DOWN] } });
    expect(seen).toHaveLength(3);
    await expectNothingRecordedFor(user);
    expect(await ListingPhoto.count({ where: { storageKey: { [Op.in]: seen } } })).toBe(0);
    for (const key of seen) expect(await working.storage.head(key)).toBeNull();
  });
});
