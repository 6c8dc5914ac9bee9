// One contract, two drivers: S3 (through s3rver, which checks signatures) and the filesystem.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isValidObjectKey, newObjectKey, ObjectTooLargeError } from "~/platform/storage/types";
import { startFilesystemStorage, startS3rverStorage, type TestStorage } from "../support/storage";

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4, 5, 6]);

async function* chunks(total: number, size = 64 * 1024) {
  for (let sent = 0; sent < total; sent += size) {
    yield new Uint8Array(Math.min(size, total - sent)).fill(7);
  }
}

describe("object keys", () => {
  it("are random under their prefix and cannot escape the storage folder", () => {
    const a = newObjectKey("kyc");
    expect(a).toMatch(/^kyc\/[A-Za-z0-9_-]{32}$/);
    expect(newObjectKey("kyc")).not.toBe(a);
    for (const bad of ["../etc/passwd", "kyc/../x", "kyc//x", "/kyc/x", "kyc/x.meta", ""]) {
      expect(isValidObjectKey(bad)).toBe(false);
    }
  });
});

describe.each([
  ["s3", startS3rverStorage],
  ["filesystem", startFilesystemStorage],
])("storage contract: %s driver", (_name, start) => {
  let t: TestStorage;
  beforeAll(async () => {
    t = await start();
  });
  afterAll(async () => {
    await t.stop();
  });
  const fresh = () => newObjectKey("contract");

  it("puts, heads, reads a range, reads and deletes", async () => {
    const key = fresh();
    const info = await t.storage.put(key, PNG, { contentType: "image/png", maxBytes: 100 });
    expect(info).toEqual({ key, size: PNG.length, contentType: "image/png" });
    expect(await t.storage.head(key)).toEqual({ key, size: PNG.length, contentType: "image/png" });
    expect(Array.from(await t.storage.readRange(key, 0, 7))).toEqual(Array.from(PNG.slice(0, 8)));
    expect(Array.from(await t.storage.readRange(key, 10, 100))).toEqual([3, 4, 5, 6]);
    const object = await t.storage.read(key);
    const parts: Buffer[] = [];
    for await (const part of object!.body) parts.push(Buffer.from(part));
    expect(Buffer.concat(parts)).toEqual(Buffer.from(PNG));
    await t.storage.delete(key);
    expect(await t.storage.head(key)).toBeNull();
    expect(await t.storage.read(key)).toBeNull();
    await t.storage.delete(key);
  });

  it("streams a put in chunks and refuses one past its cap, storing nothing", async () => {
    const key = fresh();
    const info = await t.storage.put(key, chunks(300_000), {
      contentType: "application/pdf",
      maxBytes: 300_000,
    });
    expect(info.size).toBe(300_000);
    const big = fresh();
    await expect(
      t.storage.put(big, chunks(300_001), { contentType: "application/pdf", maxBytes: 300_000 }),
    ).rejects.toBeInstanceOf(ObjectTooLargeError);
    expect(await t.storage.head(big)).toBeNull();
  });

  it("accepts one PUT to a presigned URL with the signed type and size", async () => {
    const key = fresh();
    const target = await t.storage.presignUpload(key, {
      contentType: "image/png",
      size: PNG.length,
    });
    const response = await fetch(target.url, {
      method: "PUT",
      headers: target.headers,
      body: PNG,
    });
    expect(response.status).toBe(200);
    expect(await t.storage.head(key)).toEqual({ key, size: PNG.length, contentType: "image/png" });
  });

  it("refuses a PUT with another content type", async () => {
    const key = fresh();
    const target = await t.storage.presignUpload(key, {
      contentType: "image/png",
      size: PNG.length,
    });
    const response = await fetch(target.url, {
      method: "PUT",
      headers: { "Content-Type": "application/pdf" },
      body: PNG,
    });
    expect(response.status).toBe(403);
    expect(await t.storage.head(key)).toBeNull();
  });

  it("refuses a PUT larger than the signed size", async () => {
    const key = fresh();
    const target = await t.storage.presignUpload(key, {
      contentType: "image/png",
      size: PNG.length,
    });
    const response = await fetch(target.url, {
      method: "PUT",
      headers: target.headers,
      body: new Uint8Array(PNG.length + 1000).fill(1),
    });
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    expect(await t.storage.head(key)).toBeNull();
  });

  it("refuses a PUT with a tampered signature", async () => {
    const key = fresh();
    const target = await t.storage.presignUpload(key, {
      contentType: "image/png",
      size: PNG.length,
    });
    const url = new URL(target.url);
    const name = url.searchParams.has("X-Amz-Signature") ? "X-Amz-Signature" : "sig";
    const sig = url.searchParams.get(name)!;
    url.searchParams.set(name, (sig[0] === "a" ? "b" : "a") + sig.slice(1));
    const response = await fetch(url, { method: "PUT", headers: target.headers, body: PNG });
    expect(response.status).toBe(403);
    expect(await t.storage.head(key)).toBeNull();

    // Pointing a valid signature at another key is tampering too.
    const other = fresh();
    const moved = target.url.replace(key, other);
    const again = await fetch(moved, { method: "PUT", headers: target.headers, body: PNG });
    expect(again.status).toBe(403);
    expect(await t.storage.head(other)).toBeNull();
  });

  it("refuses an expired upload URL", async () => {
    const key = fresh();
    t.setNow(new Date(Date.now() - 60 * 60 * 1000));
    const target = await t.storage.presignUpload(key, {
      contentType: "image/png",
      size: PNG.length,
      expiresInSeconds: 60,
    });
    t.setNow(new Date());
    const response = await fetch(target.url, { method: "PUT", headers: target.headers, body: PNG });
    expect(response.status).toBe(403);
    expect(await t.storage.head(key)).toBeNull();
  });

  it("serves a signed download URL until it expires, and not with a tampered signature", async () => {
    const key = fresh();
    await t.storage.put(key, PNG, { contentType: "image/png", maxBytes: 100 });
    const url = await t.storage.signedDownloadUrl(key, { expiresInSeconds: 60 });
    const ok = await fetch(url);
    expect(ok.status).toBe(200);
    expect(ok.headers.get("content-type")).toBe("image/png");
    expect(new Uint8Array(await ok.arrayBuffer())).toEqual(PNG);

    const tampered = new URL(url);
    const name = tampered.searchParams.has("X-Amz-Signature") ? "X-Amz-Signature" : "sig";
    const sig = tampered.searchParams.get(name)!;
    tampered.searchParams.set(name, (sig[0] === "a" ? "b" : "a") + sig.slice(1));
    expect((await fetch(tampered)).status).toBe(403);

    const otherKey = fresh();
    await t.storage.put(otherKey, PNG, { contentType: "image/png", maxBytes: 100 });
    expect((await fetch(url.replace(key, otherKey))).status).toBe(403);

    t.setNow(new Date(Date.now() - 60 * 60 * 1000));
    const old = await t.storage.signedDownloadUrl(key, { expiresInSeconds: 60 });
    t.setNow(new Date());
    expect((await fetch(old)).status).toBe(403);
  });
});
