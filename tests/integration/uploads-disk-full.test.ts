// A full or failing upload disk (record 3208): the filesystem driver's writes fail the way a disk
// does (ENOSPC part-way through, EIO), through the real /storage/* route behind Express and the
// server's own request/response bridge. Every upload path answers 503 with Retry-After, leaves
// no claim, temporary or partial file, and the same signed URL works once there is room again.
import { createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import express from "express";
import sharp from "sharp";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { KycDocument } from "~/models/kyc-document.server";
import { Upload } from "~/models/upload.server";
import type { User } from "~/models/user.server";
import { createFilesystemStorage } from "~/platform/storage/filesystem.server";
import { setStorageForTests } from "~/platform/storage/index.server";
import * as documentsRoute from "~/routes/api.kyc.documents";
import * as documentUrlRoute from "~/routes/api.kyc.document-url";
import * as uploadRoute from "~/routes/api.objects.upload";
import * as vehiclesApi from "~/routes/api.vehicles";
import * as affiliatePage from "~/routes/affiliate-registration/route";
import * as kycPage from "~/routes/kyc-verification/route";
import * as postVehicle from "~/routes/post-vehicle";
import * as storageRoute from "~/routes/storage.$";
import { sendResponse, toFetchRequest } from "../../server/remix";
import { createTestUser, requestAs, sessionCookieFor } from "../support/auth";
import { call, type Handler } from "../support/routes";

const UNAVAILABLE = "File storage is unavailable right now. Please try again in a few minutes.";

type Failure = "ENOSPC" | "EIO";

/** A disk with `room` bytes left: a write that does not fit stores what fits, then fails. */
function failingDisk() {
  const disk = { room: Infinity, failure: "ENOSPC" as Failure };
  const open = (file: string) => {
    const out = createWriteStream(file);
    return new Writable({
      write(chunk: Buffer, _encoding, callback) {
        if (chunk.byteLength <= disk.room) {
          disk.room -= chunk.byteLength;
          out.write(chunk, (error) => callback(error));
          return;
        }
        const fits = chunk.subarray(0, disk.room);
        disk.room = 0;
        const code = disk.failure;
        const message = code === "ENOSPC" ? "no space left on device, write" : "i/o error, write";
        const fail = () =>
          callback(Object.assign(new Error(`${code}: ${message}`), { code, syscall: "write" }));
        if (fits.byteLength > 0) out.write(fits, fail);
        else fail();
      },
      final(callback) {
        out.end(callback);
      },
      destroy(error, callback) {
        out.destroy();
        callback(error);
      },
    });
  };
  return { disk, open };
}

async function filesUnder(root: string): Promise<string[]> {
  const entries = await fs.readdir(root, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)));
}

let root: string;
let server: ReturnType<ReturnType<typeof express>["listen"]>;
let disk: ReturnType<typeof failingDisk>["disk"];
let storageDriver: ReturnType<typeof createFilesystemStorage>;
let documentBytes: Uint8Array;
let baseUrlOfServer = "";

beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), "bidyard-full-disk-"));
  // a real PNG of about 700 KB (noise does not compress): still arriving when the disk fills
  const noise = Buffer.alloc(420 * 420 * 4);
  for (let i = 0; i < noise.length; i++) noise[i] = (i * 2654435761) >>> 24;
  documentBytes = new Uint8Array(
    await sharp(noise, { raw: { width: 420, height: 420, channels: 4 } })
      .png({ compressionLevel: 0 })
      .toBuffer(),
  );
  // The app's /storage/* route behind Express, bridged exactly as server/remix.ts does it.
  const app = express();
  app.all("/storage/*", async (req, res) => {
    const request = toFetchRequest(req, res);
    const handler = (req.method === "PUT" ? storageRoute.action : storageRoute.loader) as Handler;
    await sendResponse(res, await call(handler, request));
  });
  // the no-JS KYC form over real HTTP too: a write failing mid-stream must not reset the post
  app.post("/kyc-verification", async (req, res) => {
    await sendResponse(res, await call(kycPage.action as Handler, toFetchRequest(req, res)));
  });
  server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  baseUrlOfServer = baseUrl;
  const failing = failingDisk();
  disk = failing.disk;
  storageDriver = createFilesystemStorage({
    root,
    secret: "disk-full-secret",
    baseUrl,
    createWriteStream: failing.open,
  });
});
afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await fs.rm(root, { recursive: true, force: true });
});
afterEach(() => {
  setStorageForTests(undefined);
  disk.room = Infinity;
});

async function issue(user: User, bytes: Uint8Array) {
  const issued = await call(
    uploadRoute.action as Handler,
    await requestAs(user, "/api/objects/upload", {
      json: { size: bytes.length, contentType: "image/png" },
    }),
  );
  expect(issued.status).toBe(200);
  return (await issued.json()) as { uploadURL: string; headers: Record<string, string> };
}

async function confirm(user: User, documentURL: string) {
  return call(
    documentUrlRoute.action as Handler,
    await requestAs(user, "/api/kyc/document-url", { method: "PUT", json: { documentURL } }),
  );
}

describe.each(["ENOSPC", "EIO"] as const)("a disk failing with %s", (failure) => {
  it("signed-URL PUT: 503 + Retry-After (not a reset), no file left, the same URL works after", async () => {
    setStorageForTests(storageDriver);
    const user = await createTestUser();
    const { uploadURL, headers } = await issue(user, documentBytes);
    const before = await filesUnder(root);

    disk.failure = failure;
    disk.room = 64 * 1024;
    const refused = await fetch(uploadURL, {
      method: "PUT",
      headers,
      body: documentBytes as BodyInit,
    });
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("30");
    expect(await refused.text()).toBe(UNAVAILABLE);
    // no claim, no temporary file, no partial object
    expect((await filesUnder(root)).sort()).toEqual(before.sort());
    expect((await confirm(user, uploadURL)).status).toBe(400); // nothing arrived

    disk.room = Infinity;
    const again = await fetch(uploadURL, {
      method: "PUT",
      headers,
      body: documentBytes as BodyInit,
    });
    expect(again.status).toBe(200);
    const confirmed = await confirm(user, uploadURL);
    expect(confirmed.status).toBe(200);
    const { objectPath } = (await confirmed.json()) as { objectPath: string };
    const submitted = await call(
      documentsRoute.action as Handler,
      await requestAs(user, "/api/kyc/documents", {
        json: { documentType: "passport", documentUrl: objectPath },
      }),
    );
    expect(submitted.status).toBe(201);
    // the URL is spent once it has been used successfully
    const twice = await fetch(uploadURL, {
      method: "PUT",
      headers,
      body: documentBytes as BodyInit,
    });
    expect(twice.status).toBe(409);
  });

  it("the KYC form over HTTP, the disk failing mid-stream: the 503 arrives, nothing is left", async () => {
    setStorageForTests(storageDriver);
    const user = await createTestUser();
    const before = await filesUnder(root);
    disk.failure = failure;
    disk.room = 64 * 1024;
    const form = new FormData();
    form.set("documentType", "passport");
    form.set("file", new Blob([documentBytes as BlobPart], { type: "image/png" }), "id.png");
    const url = new URL("/kyc-verification", baseUrlOfServer);
    const response = await fetch(url, {
      method: "POST",
      body: form,
      headers: { Cookie: await sessionCookieFor(user) },
    });
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("30");
    expect(JSON.stringify(await response.json())).toContain(UNAVAILABLE);
    expect((await filesUnder(root)).sort()).toEqual(before.sort());
    expect(await KycDocument.count({ where: { userId: user.id } })).toBe(0);
  });

  it("confirming a PUT file on a full disk: 503 + Retry-After, still confirmable after", async () => {
    setStorageForTests(storageDriver);
    const user = await createTestUser();
    const { uploadURL, headers } = await issue(user, documentBytes);
    const put = await fetch(uploadURL, { method: "PUT", headers, body: documentBytes as BodyInit });
    expect(put.status).toBe(200);
    const before = await filesUnder(root);

    disk.failure = failure;
    disk.room = 1000;
    const refused = await confirm(user, uploadURL);
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("30");
    expect(await refused.json()).toMatchObject({ message: UNAVAILABLE });
    expect((await filesUnder(root)).sort()).toEqual(before.sort());
    expect((await Upload.findOne({ where: { userId: user.id } }))!.status).toBe("issued");

    disk.room = Infinity;
    expect((await confirm(user, uploadURL)).status).toBe(200);
  });

  it("the KYC form, the licence form and listing photos: 503 + Retry-After, nothing left", async () => {
    setStorageForTests(storageDriver);
    const user = await createTestUser();
    const before = await filesUnder(root);
    disk.failure = failure;
    disk.room = 64 * 1024;

    const kycForm = new FormData();
    kycForm.set("documentType", "passport");
    kycForm.set("file", new Blob([documentBytes as BlobPart], { type: "image/png" }), "id.png");
    const kyc = await call(
      kycPage.action as Handler,
      await requestAs(user, "/kyc-verification", { method: "POST", body: kycForm }),
    );
    expect(kyc.status).toBe(503);
    expect(kyc.headers.get("retry-after")).toBe("30");
    expect(await kyc.json()).toMatchObject({ errors: { file: UNAVAILABLE } });
    // the page keeps the action's Retry-After on a no-JS post
    const pageHeaders = (kycPage as { headers?: (args: object) => Headers }).headers!({
      actionHeaders: kyc.headers,
      loaderHeaders: new Headers(),
      parentHeaders: new Headers(),
    });
    expect(new Headers(pageHeaders).get("retry-after")).toBe("30");
    expect(await KycDocument.count({ where: { userId: user.id } })).toBe(0);

    const licenceForm = new FormData();
    for (const [name, value] of Object.entries({
      businessName: "Full Disk Towing",
      contactName: "Dana Reed",
      phone: "3035550142",
      serviceArea: "Denver, CO",
      zip: "80202",
      licenseNumber: "MC-123456",
      usdotNumber: "1234567",
      vehicleTypes: "sedan",
    }))
      licenceForm.append(name, value);
    licenceForm.set(
      "licenseDocument",
      new Blob([documentBytes as BlobPart], { type: "image/png" }),
      "licence.png",
    );
    const licence = await call(
      affiliatePage.action as Handler,
      await requestAs(user, "/affiliate-registration", { method: "POST", body: licenceForm }),
    );
    expect(licence.status).toBe(503);
    expect(licence.headers.get("retry-after")).toBe("30");
    expect(JSON.stringify(await licence.json())).toContain(UNAVAILABLE);

    const photo = new File(
      [
        (await sharp({
          create: { width: 640, height: 480, channels: 3, background: { r: 9, g: 9, b: 9 } },
        })
          .jpeg()
          .toBuffer()) as BlobPart,
      ],
      "car.jpg",
      { type: "image/jpeg" },
    );
    disk.room = 2000;
    const listing = new FormData();
    for (const [name, value] of Object.entries({
      title: "Full disk Jeep",
      make: "Jeep",
      model: "Wrangler",
      year: "2017",
      price: "24000",
      condition: "good",
      city: "Denver",
    }))
      listing.append(name, value);
    listing.append("photos", photo);
    const page = await call(
      postVehicle.action as Handler,
      await requestAs(user, "/post-vehicle", { body: listing }),
    );
    expect(page.status).toBe(503);
    expect(page.headers.get("retry-after")).toBe("30");
    const pageHeadersFn = (postVehicle as { headers?: (args: object) => Headers }).headers!;
    expect(
      new Headers(
        pageHeadersFn({
          actionHeaders: page.headers,
          loaderHeaders: new Headers(),
          parentHeaders: new Headers(),
        }),
      ).get("retry-after"),
    ).toBe("30");
    disk.room = 2000;
    listing.set("source", "page");
    const api = await call(
      vehiclesApi.action as Handler,
      await requestAs(user, "/api/vehicles", {
        body: listing,
        headers: { Accept: "application/json" },
      }),
    );
    expect(api.status).toBe(503);
    expect(api.headers.get("retry-after")).toBe("30");
    expect((await filesUnder(root)).sort()).toEqual(before.sort());
  });
});
