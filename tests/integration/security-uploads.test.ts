// The security suite (tests/support/security-app.ts), upload attacks: polyglots (JPEG header + HTML,
// a real JPEG with a script after it, a PDF with JavaScript, hex-escaped too), SVG, a text file
// declared as JPEG, oversized, empty and path-traversal names, by the no-JS form, by the upload URL
// and for listing photos: refused with a message, nothing left in storage, no record kept.
// Genuine files still pass.
import fs from "node:fs";
import path from "node:path";
import { QueryTypes } from "sequelize";
import { beforeAll, describe, expect, it } from "vitest";
import { sequelize } from "~/models/db.server";
import { createTestUser } from "../support/auth";
import { JPEG_BYTES, PDF_BYTES, PNG_BYTES } from "../support/kyc-files";
import {
  Browser,
  browserFor,
  jpegPhoto,
  securityApp,
  startSecurityApp,
  storedFiles,
} from "../support/security-app";
import { count } from "../support/sql";

startSecurityApp();

const bytesOf = (...parts: Array<Uint8Array | string>) =>
  Buffer.concat(parts.map((part) => (typeof part === "string" ? Buffer.from(part) : part)));

const HTML_TAIL =
  "<html><body><script>fetch('/api/auth/user').then(r=>r.text())</script></body></html>";
const SVG = `<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.cookie)</script></svg>`;
const PDF_WITH_JS =
  "%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R /OpenAction 3 0 R >>\nendobj\n" +
  "2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\n" +
  "3 0 obj\n<< /S /JavaScript /JS (app.alert\\('hi'\\)) >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n";
const PDF_WITH_ESCAPED_JS = PDF_WITH_JS.replace("/S /JavaScript /JS", "/S /Java#53cript /J#53");
// The action inside an object stream written in hex (only compressed ones used to be unpacked).
const HIDDEN_ACTION = Buffer.from("3 0 << /S /JavaScript /JS (app.alert\\('hi'\\)) >>").toString(
  "hex",
);
const PDF_WITH_JS_IN_HEX_OBJECT_STREAM =
  "%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R /OpenAction 3 0 R >>\nendobj\n" +
  "2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\n" +
  `4 0 obj\n<< /Type /ObjStm /N 1 /First 4 /Filter /ASCIIHexDecode /Length ${HIDDEN_ACTION.length + 1} >>\nstream\n` +
  `${HIDDEN_ACTION}>\nendstream\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n`;

describe("upload attacks are refused, nothing stored, nothing recorded", () => {
  let genuineJpeg: Uint8Array;
  beforeAll(async () => {
    genuineJpeg = await jpegPhoto();
  });

  const CASES = () =>
    [
      {
        label: "JPEG header followed by HTML",
        bytes: bytesOf(JPEG_BYTES, HTML_TAIL),
        name: "id.jpg",
        type: "image/jpeg",
        message: "web page, script or PDF action",
      },
      {
        label: "a real JPEG with a script after its end",
        bytes: bytesOf(genuineJpeg, HTML_TAIL),
        name: "id.jpg",
        type: "image/jpeg",
        message: "web page, script or PDF action",
      },
      {
        label: "a JPEG comment segment holding an SVG",
        bytes: bytesOf(
          Uint8Array.from([0xff, 0xd8, 0xff, 0xfe, 0x00, 0x40]),
          "<svg onload=alert(1)>".padEnd(62, " "),
          genuineJpeg.subarray(2),
        ),
        name: "id.jpg",
        type: "image/jpeg",
        message: "web page, script or PDF action",
      },
      {
        label: "PNG signature followed by a PHP page",
        bytes: bytesOf(PNG_BYTES, "<?php system($_GET['c']); ?>"),
        name: "id.png",
        type: "image/png",
        message: "web page, script or PDF action",
      },
      {
        label: "a PDF with JavaScript",
        bytes: bytesOf(PDF_WITH_JS),
        name: "id.pdf",
        type: "application/pdf",
        message: "web page, script or PDF action",
      },
      {
        label: "a PDF with hex-escaped JavaScript names",
        bytes: bytesOf(PDF_WITH_ESCAPED_JS),
        name: "id.pdf",
        type: "application/pdf",
        message: "web page, script or PDF action",
      },
      {
        label: "a PDF with JavaScript in a hex-encoded object stream",
        bytes: bytesOf(PDF_WITH_JS_IN_HEX_OBJECT_STREAM),
        name: "id.pdf",
        type: "application/pdf",
        message: "web page, script or PDF action",
      },
      {
        label: "an SVG",
        bytes: bytesOf(SVG),
        name: "id.svg",
        type: "image/svg+xml",
        message: "Only JPG, PNG or PDF files are accepted",
      },
      {
        label: "text declared as a JPEG",
        bytes: bytesOf("just some text, honest"),
        name: "id.jpg",
        type: "image/jpeg",
        message: "Only JPG, PNG or PDF files are accepted",
      },
      {
        label: "a PNG declared as a JPEG",
        bytes: bytesOf(PNG_BYTES),
        name: "id.jpg",
        type: "image/jpeg",
        message: "does not match its type",
      },
      {
        label: "an empty file",
        bytes: new Uint8Array(),
        name: "id.jpg",
        type: "image/jpeg",
        message: "The file is empty",
      },
      {
        label: "a file over 10 MB",
        bytes: (() => {
          const big = new Uint8Array(10_485_761);
          big.set(JPEG_BYTES);
          return big;
        })(),
        name: "id.jpg",
        type: "image/jpeg",
        message: "larger than 10 MB",
      },
      {
        label: "a name that is only ..",
        bytes: bytesOf(PNG_BYTES),
        name: "..",
        type: "image/png",
        message: "names a folder path",
      },
      {
        label: "a path whose last part is ..",
        bytes: bytesOf(PNG_BYTES),
        name: "uploads/..",
        type: "image/png",
        message: "names a folder path",
      },
    ] as const;

  it("by the KYC form (no JavaScript): each refused with its message", async () => {
    const user = await createTestUser();
    const browser = await browserFor(user);
    const before = storedFiles();
    for (const attack of CASES()) {
      const form = new FormData();
      form.set("documentType", "license");
      form.set("file", new File([attack.bytes], attack.name, { type: attack.type }));
      const response = await browser.send("/kyc-verification", { body: form });
      expect(response.status, attack.label).toBe(400);
      const html = (await response.text()).replace(/&#x27;|&#39;/g, "'");
      expect(html, attack.label).toContain(attack.message);
      expect(storedFiles(), attack.label).toEqual(before);
    }
    expect(await count("select count(*) n from uploads where user_id = $1", [user.id])).toBe(0);
    expect(await count("select count(*) n from kyc_documents where user_id = $1", [user.id])).toBe(
      0,
    );

    // Genuine files still go through, whatever directories their names claim: Remix keeps only
    // the last part of a name and our keys are random, so nothing lands outside the folder.
    for (const [bytes, name, type] of [
      [genuineJpeg, "id.jpg", "image/jpeg"],
      [PDF_BYTES, "id.pdf", "application/pdf"],
      [PNG_BYTES, "../../../../tmp/owned.png", "image/png"],
      [PNG_BYTES, "..\\..\\owned.png", "image/png"],
    ] as const) {
      const form = new FormData();
      form.set("documentType", "license");
      form.set("file", new File([new Uint8Array(bytes)], name, { type }));
      expect((await browser.send("/kyc-verification", { body: form })).status, name).toBe(302);
    }
    const keys = await sequelize.query<{ object_key: string }>(
      "select object_key from kyc_documents where user_id = $1",
      { bind: [user.id], type: QueryTypes.SELECT },
    );
    expect(keys).toHaveLength(4);
    for (const { object_key } of keys) expect(object_key).toMatch(/^kyc\/[A-Za-z0-9_-]{32}$/);
    expect(
      storedFiles().every((file) => /^kyc\/[A-Za-z0-9_-]{32}(\.meta\.json)?$/.test(file)),
    ).toBe(true);
    expect(fs.existsSync("/tmp/owned.png")).toBe(false);
    expect(fs.existsSync(path.join(securityApp.uploadsDir, "..", "owned.png"))).toBe(false);
    expect(fs.existsSync(path.join(securityApp.uploadsDir, "owned.png"))).toBe(false);
  });

  it("by the upload URL (with JavaScript): refused when declared or when confirmed, object deleted", async () => {
    const user = await createTestUser();
    const browser = await browserFor(user);
    const before = storedFiles();
    for (const declared of [
      { size: 100, contentType: "image/svg+xml", message: "Only JPG, PNG or PDF" },
      { size: 100, contentType: "text/html", message: "Only JPG, PNG or PDF" },
      { size: 0, contentType: "image/jpeg", message: "The file is empty" },
      { size: 10_485_761, contentType: "image/jpeg", message: "larger than 10 MB" },
    ]) {
      const response = await browser.send("/api/objects/upload", { json: declared });
      expect(response.status, declared.contentType).toBe(400);
      expect(((await response.json()) as { message: string }).message).toContain(declared.message);
    }
    for (const attack of CASES().filter(
      // No name travels with an upload URL (the object key is ours): name cases do not apply.
      (c) =>
        c.message !== "names a folder path" &&
        c.bytes.byteLength > 0 &&
        c.bytes.byteLength <= 10_485_760 &&
        c.type !== "image/svg+xml",
    )) {
      const issued = await browser.send("/api/objects/upload", {
        json: { size: attack.bytes.byteLength, contentType: attack.type },
      });
      expect(issued.status, attack.label).toBe(200);
      const { uploadURL } = (await issued.json()) as { uploadURL: string };
      const put = await browser.send(uploadURL, {
        method: "PUT",
        body: attack.bytes,
        headers: { "content-type": attack.type },
      });
      expect(put.status, attack.label).toBe(200);
      const confirm = await browser.send("/api/kyc/document-url", {
        method: "PUT",
        json: { documentURL: uploadURL },
      });
      expect(confirm.status, attack.label).toBe(400);
      expect(((await confirm.json()) as { message: string }).message, attack.label).toContain(
        attack.message,
      );
      // Refused objects are deleted; a later submit finds nothing to attach.
      const objectPath = `/objects/${new URL(uploadURL).pathname.slice("/storage/incoming/".length)}`;
      const submit = await browser.send("/api/kyc/documents", {
        json: { documentType: "license", documentUrl: objectPath },
      });
      expect(submit.status, attack.label).toBe(404);
    }
    expect(storedFiles()).toEqual(before);
    expect(await count("select count(*) n from kyc_documents where user_id = $1", [user.id])).toBe(
      0,
    );
    expect(
      await count("select count(*) n from uploads where user_id = $1 and status <> 'discarded'", [
        user.id,
      ]),
    ).toBe(0);
  });

  it("listing photos: refused with a message, no listing, no photo stored", async () => {
    const user = await createTestUser();
    const browser = await browserFor(user);
    const before = storedFiles();
    const photoCases = [
      { label: "JPEG header + HTML", bytes: bytesOf(JPEG_BYTES, HTML_TAIL), name: "car.jpg" },
      { label: "real JPEG + script", bytes: bytesOf(genuineJpeg, HTML_TAIL), name: "car.jpg" },
      { label: "SVG", bytes: bytesOf(SVG), name: "car.svg", type: "image/svg+xml" },
      { label: "text as JPEG", bytes: bytesOf("not a picture"), name: "car.jpg" },
      { label: "a PDF", bytes: bytesOf(PDF_BYTES), name: "car.jpg" },
      { label: "empty", bytes: new Uint8Array(), name: "car.jpg" },
      { label: "over 10 MB", bytes: new Uint8Array(10_485_761).fill(0xff), name: "car.jpg" },
      { label: "a name that is only ..", bytes: genuineJpeg, name: ".." },
    ];
    for (const attack of photoCases) {
      const form = new FormData();
      for (const [key, value] of Object.entries({
        title: `Upload attack ${attack.label}`,
        make: "Jeep",
        model: "Wrangler",
        year: "2017",
        price: "24000",
        condition: "good",
        city: "Denver",
      }))
        form.set(key, value);
      form.append(
        "photos",
        new File([new Uint8Array(attack.bytes)], attack.name, {
          type: attack.type ?? "image/jpeg",
        }),
      );
      const response = await browser.send("/post-vehicle", { body: form });
      expect(response.status, attack.label).toBe(400);
      expect(await response.text(), attack.label).toMatch(
        /Photos must be JPG or PNG|could not be read|web page or script|is empty|at most 10 MB|names a folder path/,
      );
    }
    expect(storedFiles()).toEqual(before);
    expect(await count("select count(*) n from listings where user_id = $1", [user.id])).toBe(0);

    // A genuine photo is taken (re-encoded).
    const ok = new FormData();
    for (const [key, value] of Object.entries({
      title: "Genuine photo",
      make: "Jeep",
      model: "Wrangler",
      year: "2017",
      price: "24000",
      condition: "good",
      city: "Denver",
    }))
      ok.set(key, value);
    ok.append("photos", new File([new Uint8Array(genuineJpeg)], "car.jpg", { type: "image/jpeg" }));
    ok.append(
      "photos",
      new File([new Uint8Array(genuineJpeg)], "../../../tmp/owned-photo.jpg", {
        type: "image/jpeg",
      }),
    );
    expect((await browser.send("/post-vehicle", { body: ok })).status).toBe(302);
    expect(fs.existsSync("/tmp/owned-photo.jpg")).toBe(false);
    const photos = await sequelize.query<{ storage_key: string }>(
      `select p.storage_key from listing_photos p join listings l on l.id = p.listing_id
        where l.user_id = $1`,
      { bind: [user.id], type: QueryTypes.SELECT },
    );
    expect(photos).toHaveLength(2);
    for (const photo of photos) expect(photo.storage_key).toMatch(/^listings\/[A-Za-z0-9_-]{32}$/);
    expect(await count("select count(*) n from listings where user_id = $1", [user.id])).toBe(1);
  });

  it("the storage route refuses keys that climb out of its folder", async () => {
    const browser = new Browser();
    for (const key of ["..%2F..%2Fescape.txt", "%2e%2e/%2e%2e/etc/passwd", "kyc/..%2F..%2Fx"]) {
      const put = await browser.send(
        `/storage/${key}?ct=text%2Fplain&len=3&exp=9999999999&sig=forged`,
        { method: "PUT", body: "abc", headers: { "content-type": "text/plain" } },
      );
      expect([403, 404, 405], key).toContain(put.status);
      const get = await browser.send(`/storage/${key}?exp=9999999999&sig=forged`);
      expect([403, 404], key).toContain(get.status);
      expect(await get.text()).not.toMatch(/root:|bidyard/);
    }
    expect(fs.existsSync(path.join(securityApp.uploadsDir, "..", "escape.txt"))).toBe(false);
  });
});
