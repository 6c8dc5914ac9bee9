// Lot pictures from the feed: the import records the URLs (and fetches nothing), the fetcher
// downloads them from a local server, checks, stores and thumbnails them, the route serves them,
// a broken one ends failed, and a lot without pictures shows its drawing. Each lot's fetch is a
// job of its own (docs/decisions/3564), queued with its pictures and retried by the queue.
import { execFile } from "node:child_process";
import dns from "node:dns";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { promisify } from "node:util";
import { parse } from "csv-parse/sync";
import sharp from "sharp";
import { QueryTypes } from "sequelize";
import { http as mswHttp, passthrough } from "msw";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { sequelize } from "~/models/db.server";
import { listFailedJobs } from "~/services/admin/failed-jobs.server";
import { importCopartCsv } from "~/services/auctions/import.server";
import {
  copartPictureList,
  feedPictureUrl,
  fetchPicturesOfLot,
  LOT_PICTURE_LIMITS,
  queueLotPictures,
} from "~/services/auctions/lot-images.server";
import { lotPicture } from "~/services/auctions/pictures";
import { getLot } from "~/services/auctions/lots.server";
import { resetClock } from "~/platform/clock.server";
import {
  checkRemoteUrl,
  fetchRemote,
  isPublicAddress,
  RemoteFetchError,
} from "~/platform/remote-fetch.server";
import { setStorageForTests, storage } from "~/platform/storage/index.server";
import { loader as pictureLoader } from "~/routes/lot-pictures.$id";
import { server as msw } from "../mocks/server";
import { decompressionBombPng, TRUNCATED_PNG_BYTES } from "../support/kyc-files";
import { clearJobs, makeJobsDue, queuedJobs, runJobs } from "../support/jobs";
import { startFilesystemStorage, type TestStorage } from "../support/storage";

const SAMPLE = "tests/fixtures/copart-sales-sample.csv";

let store: TestStorage;
let server: http.Server;
let base = "";
const hits = new Map<string, number>();
/** Paths that answer 503 this many more times before they answer with their file. */
const unavailable = new Map<string, number>();
const files = new Map<string, { type: string; body: Buffer }>();

async function picture(format: "jpeg" | "png" | "webp", width: number, height: number) {
  return sharp({ create: { width, height, channels: 3, background: { r: 30, g: 90, b: 160 } } })
    [format]()
    .toBuffer();
}

beforeAll(async () => {
  store = await startFilesystemStorage();
  setStorageForTests(store.storage);
  files.set("/pictures/camry.jpg", { type: "image/jpeg", body: await picture("jpeg", 800, 500) });
  files.set("/pictures/camry_thb.jpg", {
    type: "image/jpeg",
    body: await picture("jpeg", 120, 90),
  });
  files.set("/pictures/civic-1.png", { type: "image/png", body: await picture("png", 640, 400) });
  files.set("/pictures/civic-1_hrs.jpg", {
    type: "image/jpeg",
    body: await picture("jpeg", 2048, 1280),
  });
  files.set("/pictures/civic-1_thb.jpg", {
    type: "image/jpeg",
    body: await picture("jpeg", 120, 75),
  });
  files.set("/pictures/civic-2.webp", {
    type: "image/webp",
    body: await picture("webp", 640, 400),
  });
  // a web page where a picture should be, even labelled as one: refused by its content
  files.set("/pictures/silverado.jpg", {
    type: "image/jpeg",
    body: Buffer.from("<!doctype html><html><body>Lot not found</body></html>"),
  });
  // a 400-megapixel PNG of 389 KB, and a PNG cut off in its pixels (record 3209)
  files.set("/pictures/bomb.png", { type: "image/png", body: Buffer.from(decompressionBombPng()) });
  files.set("/pictures/cut.png", { type: "image/png", body: Buffer.from(TRUNCATED_PNG_BYTES) });
  server = http.createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://x");
    hits.set(url.pathname, (hits.get(url.pathname) ?? 0) + 1);
    if (url.pathname === "/slow") return; // never answers
    if (url.pathname.startsWith("/lotImages/")) {
      // Copart's list of a lot's pictures, as its "Image URL" answers
      const link = (name: string, thumb = false, hd = false) => ({
        url: `${base}/pictures/${name}`,
        isThumbNail: thumb,
        isHdImage: hd,
      });
      response.writeHead(200, { "Content-Type": "application/json" });
      response.end(
        JSON.stringify({
          lotImages: [
            { sequence: 2, link: [link("civic-2.webp")] },
            {
              sequence: 1,
              link: [
                link("civic-1_thb.jpg", true),
                link("civic-1.png"),
                link("civic-1_hrs.jpg", false, true),
              ],
            },
          ],
        }),
      );
      return;
    }
    const busy = unavailable.get(url.pathname) ?? 0;
    if (busy > 0) {
      unavailable.set(url.pathname, busy - 1);
      response.writeHead(503, { "Content-Type": "text/plain" });
      response.end("Try again later");
      return;
    }
    const file = files.get(url.pathname);
    if (!file) {
      response.writeHead(404, { "Content-Type": "text/plain" });
      response.end("Not found");
      return;
    }
    response.writeHead(200, { "Content-Type": file.type });
    response.end(file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  setStorageForTests(undefined);
  await store.stop();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

afterEach(() => resetClock());

/** The fixture's header and its first four rows (good lots), with the picture columns set. */
function csvWith(
  pictures: Record<string, { image?: string; thumb?: string }>,
  options: { withoutPictureColumns?: boolean; lotPrefix?: string } = {},
) {
  const [header, ...rows] = parse(fs.readFileSync(SAMPLE, "utf8"), {
    relax_column_count: true,
  }) as string[][];
  const at = (name: string) => header.indexOf(name);
  const out = rows.slice(0, 4).map((row) => {
    const cells = [...row];
    const lot = cells[at("Lot number")];
    cells[at("Image URL")] = pictures[lot]?.image ?? "";
    cells[at("Image Thumbnail")] = pictures[lot]?.thumb ?? "";
    if (options.lotPrefix) cells[at("Lot number")] = options.lotPrefix + lot.slice(2);
    return cells;
  });
  const keep = header.map(
    (name) =>
      !options.withoutPictureColumns || (name !== "Image URL" && name !== "Image Thumbnail"),
  );
  const line = (cells: string[]) =>
    cells
      .filter((_, i) => keep[i])
      .map((c) => `"${c.replace(/"/g, '""')}"`)
      .join(",");
  return [line(header), ...out.map(line)].join("\n") + "\n";
}

/** What the worker does: every due picture job run, `passes` times, waits skipped. */
async function runPictureJobs(passes = 1) {
  for (let pass = 0; pass < passes; pass++) {
    await makeJobsDue("fetch_lot_pictures");
    await runJobs();
  }
}

async function pictureJobsOf(lotId: string) {
  return (await queuedJobs("fetch_lot_pictures")).filter(
    (job) => job.key === `lot-pictures:${lotId}`,
  );
}

type ImageRow = {
  id: string;
  lot_id: string;
  source: string;
  position: number;
  source_url: string;
  status: string;
  storage_key: string | null;
  thumb_key: string | null;
  content_type: string | null;
  width: number | null;
  error: string | null;
};

async function imagesOf(lotNumber: string) {
  return sequelize.query<ImageRow>(
    `SELECT i.id::text, i.lot_id::text, i.source, i.position, i.source_url, i.status,
            i.storage_key, i.thumb_key, i.content_type, i.width, i.error
       FROM lot_images i JOIN lots l ON l.id = i.lot_id
      WHERE l.lot_number = :lotNumber ORDER BY i.source, i.position`,
    { replacements: { lotNumber }, type: QueryTypes.SELECT },
  );
}

async function lotRow(lotNumber: string) {
  const [row] = await sequelize.query<{ id: string; image_urls: string[] }>(
    "SELECT id::text, image_urls FROM lots WHERE lot_number = :lotNumber",
    { replacements: { lotNumber }, type: QueryTypes.SELECT },
  );
  return row;
}

async function servePicture(url: string) {
  const parsed = new URL(url, "http://localhost:3000");
  return (await pictureLoader({
    request: new Request(parsed),
    params: { id: parsed.pathname.split("/").pop()! },
    context: {},
  })) as Response;
}

describe("lot pictures from the feed", () => {
  it("records the URLs on import, fetches, stores and serves them, and leaves a broken one failed with the lot on its drawing", async () => {
    await clearJobs();
    const csv = csvWith({
      "71234561": {
        image: `${base}/pictures/camry.jpg`,
        thumb: `${base}/pictures/camry_thb.jpg`,
      },
      "71234562": { image: `${base}/pictures/broken.jpg` },
      "71234563": { image: `${base}/lotImages/71234563?country=us&brand=cprt` },
      "71234564": { image: `${base}/pictures/silverado.jpg` },
    });
    const report = await importCopartCsv(Readable.from([csv]));
    expect(report).toMatchObject({ rows: 4, inserted: 4, pictures: 5, skipped: [] });
    // the import only records: nothing was downloaded during the parse
    expect(hits.size).toBe(0);
    expect((await imagesOf("71234561")).map((i) => [i.source, i.status])).toEqual([
      ["image_thumbnail", "pending"],
      ["image_url", "pending"],
    ]);
    // one job per lot, queued with its pictures
    const lotIds = await Promise.all(
      ["71234561", "71234562", "71234563", "71234564"].map(async (n) => (await lotRow(n)).id),
    );
    for (const lotId of lotIds)
      expect(await pictureJobsOf(lotId)).toMatchObject([
        {
          payload: { lotId },
          attempts: 0,
          max_attempts: LOT_PICTURE_LIMITS.maxAttempts,
          priority: 5,
        },
      ]);

    // the worker runs them (a second pass to show nothing is left to retry)
    await runPictureJobs(2);

    // A plain JPEG: the original and a 480 px WebP thumbnail, both in storage
    const [camryThumbRow, camry] = await imagesOf("71234561");
    expect(camry).toMatchObject({
      status: "stored",
      content_type: "image/jpeg",
      width: 800,
      error: null,
    });
    const original = await storage().head(camry.storage_key!);
    expect(original).toMatchObject({
      contentType: "image/jpeg",
      size: files.get("/pictures/camry.jpg")!.body.length,
    });
    const thumbInfo = await storage().head(camry.thumb_key!);
    expect(thumbInfo?.contentType).toBe("image/webp");
    const thumbObject = await storage().read(camry.thumb_key!);
    const thumbBytes = Buffer.concat(await thumbObject!.body.toArray());
    expect(await sharp(thumbBytes).metadata()).toMatchObject({ format: "webp", width: 480 });
    // the feed's thumbnail is only a stand-in: not fetched once the lot has its picture
    expect(camryThumbRow).toMatchObject({ source: "image_thumbnail", status: "skipped" });
    expect(hits.get("/pictures/camry_thb.jpg")).toBeUndefined();
    const camryLot = await lotRow("71234561");
    expect(camryLot.image_urls).toEqual([`/lot-pictures/${camry.id}`]);

    // the route serves both sizes with the right type, nosniff and a long cache
    const thumbAnswer = await servePicture(
      lotPicture(
        { year: 2019, make: "Toyota", model: "Camry", imageUrls: camryLot.image_urls },
        "thumb",
      ).src,
    );
    expect(thumbAnswer.status).toBe(200);
    expect(thumbAnswer.headers.get("content-type")).toBe("image/webp");
    expect(thumbAnswer.headers.get("x-content-type-options")).toBe("nosniff");
    expect(thumbAnswer.headers.get("cache-control")).toMatch(/max-age=31536000/);
    expect(Buffer.from(await thumbAnswer.arrayBuffer()).equals(thumbBytes)).toBe(true);
    const fullAnswer = await servePicture(camryLot.image_urls[0]);
    expect(fullAnswer.headers.get("content-type")).toBe("image/jpeg");
    expect(
      Buffer.from(await fullAnswer.arrayBuffer()).equals(files.get("/pictures/camry.jpg")!.body),
    ).toBe(true);
    expect((await servePicture("/lot-pictures/999999999")).status).toBe(404);
    expect((await servePicture("/lot-pictures/not-an-id")).status).toBe(404);
    // a picture that failed has no object to serve
    const [broken] = await imagesOf("71234562");
    expect((await servePicture(`/lot-pictures/${broken.id}`)).status).toBe(404);

    // A 404: the picture is not there, and will not be: failed at once, not tried again
    expect(broken).toMatchObject({ status: "failed", error: "HTTP 404", storage_key: null });
    expect(hits.get("/pictures/broken.jpg")).toBe(1);
    const brokenLot = await lotRow("71234562");
    expect(brokenLot.image_urls).toEqual([]);
    // …and the lot (a white pickup) shows its drawing wherever it is shown
    const page = await getLot(brokenLot.id, null);
    expect(lotPicture(page!)).toEqual({
      src: "/vehicle-art/truck-white.svg",
      full: "/vehicle-art/truck-white.svg",
      alt: "Drawing of the 2017 Ford F150, a white pickup",
      drawn: true,
    });
    expect(lotPicture(page!, "thumb").src).toBe("/vehicle-art/truck-white.svg");

    // Copart's list of pictures: expanded into one row per picture, the ordinary size of each
    const civic = await imagesOf("71234563");
    expect(civic.map((i) => [i.source, i.position, i.status, i.content_type])).toEqual([
      ["catalogue", 1, "stored", "image/png"],
      ["catalogue", 2, "stored", "image/webp"],
      ["image_url", 0, "expanded", null],
    ]);
    expect(hits.get("/pictures/civic-1_hrs.jpg")).toBeUndefined();
    expect(hits.get("/pictures/civic-1_thb.jpg")).toBeUndefined();
    expect((await lotRow("71234563")).image_urls).toEqual([
      `/lot-pictures/${civic[0].id}`,
      `/lot-pictures/${civic[1].id}`,
    ]);

    // A web page is not a picture: refused at once, not tried again
    const [silverado] = await imagesOf("71234564");
    expect(silverado).toMatchObject({ status: "failed", storage_key: null });
    expect(silverado.error).toMatch(/not a JPEG, PNG or WebP picture/);
    expect(hits.get("/pictures/silverado.jpg")).toBe(1);
    expect((await lotRow("71234564")).image_urls).toEqual([]);

    // every lot's job is done
    for (const lotId of lotIds) expect(await pictureJobsOf(lotId)).toEqual([]);

    // the same file again records nothing new, queues nothing and fetches nothing
    hits.clear();
    const again = await importCopartCsv(Readable.from([csv]));
    expect(again).toMatchObject({ inserted: 0, unchanged: 4, pictures: 0 });
    for (const lotId of lotIds) expect(await pictureJobsOf(lotId)).toEqual([]);
    await runPictureJobs();
    expect(hits.size).toBe(0);
  });

  it("a changed URL replaces an open lot's picture; a file without picture columns still imports", async () => {
    const first = csvWith(
      { "71234561": { image: `${base}/pictures/camry.jpg` } },
      { lotPrefix: "72" },
    );
    await importCopartCsv(Readable.from([first]));
    await runPictureJobs();
    const [before] = await imagesOf("72234561");
    expect(before.status).toBe("stored");

    const changed = csvWith(
      { "71234561": { image: `${base}/pictures/civic-2.webp` } },
      { lotPrefix: "72" },
    );
    expect((await importCopartCsv(Readable.from([changed]))).pictures).toBe(1);
    // the old picture's row and objects are gone and the lot is back on its drawing until the
    // new one is stored
    expect(await storage().head(before.storage_key!)).toBeNull();
    expect(await storage().head(before.thumb_key!)).toBeNull();
    expect((await lotRow("72234561")).image_urls).toEqual([]);
    await runPictureJobs();
    const [after] = await imagesOf("72234561");
    expect(after).toMatchObject({ status: "stored", content_type: "image/webp" });
    expect((await lotRow("72234561")).image_urls).toEqual([`/lot-pictures/${after.id}`]);

    const plain = csvWith({}, { withoutPictureColumns: true, lotPrefix: "73" });
    expect(plain.split("\n")[0]).not.toContain("Image URL");
    const report = await importCopartCsv(Readable.from([plain]));
    expect(report).toMatchObject({ rows: 4, inserted: 4, pictures: 0, skipped: [] });
    expect(await imagesOf("73234561")).toEqual([]);
  });

  it("a download that may pass is retried by the queue, with its backoff, and stored later; after the last try it is left failed", async () => {
    await clearJobs();
    unavailable.set("/pictures/camry.jpg", 2);
    const csv = csvWith(
      {
        "71234561": { image: `${base}/pictures/camry.jpg` },
        "71234562": { image: `${base}/pictures/civic-2.webp` },
      },
      { lotPrefix: "76" },
    );
    await importCopartCsv(Readable.from([csv]));
    const camryLot = await lotRow("76234561");
    hits.clear();
    await runJobs();
    // the server answered 503: the picture is still pending with why, and the lot's job failed
    // its first try and waits for the next (e^1 s on)
    const [first] = await imagesOf("76234561");
    expect(first).toMatchObject({ status: "pending", error: "HTTP 503" });
    const [job] = await pictureJobsOf(camryLot.id);
    expect(job).toMatchObject({ attempts: 1 });
    expect(job.last_error).toMatch(/1 picture\(s\) to try again \(HTTP 503\)/);
    expect(new Date(job.run_at).getTime()).toBeGreaterThan(Date.now());
    // /admin/jobs says which lot it is about
    expect((await listFailedJobs()).find((j) => j.id === job.id)?.about).toEqual({
      label: `Pictures of lot ${camryLot.id}`,
      href: `/auctions/${camryLot.id}`,
    });
    // the other lot's job was its own: done
    expect((await imagesOf("76234562"))[0].status).toBe("stored");
    await runPictureJobs();
    expect((await pictureJobsOf(camryLot.id))[0]).toMatchObject({ attempts: 2 });
    await runPictureJobs();
    expect(hits.get("/pictures/camry.jpg")).toBe(3);
    const [stored] = await imagesOf("76234561");
    expect(stored).toMatchObject({ status: "stored", error: null });
    expect((await lotRow("76234561")).image_urls).toEqual([`/lot-pictures/${stored.id}`]);
    expect(await pictureJobsOf(camryLot.id)).toEqual([]);

    // always unavailable: on the job's last try what is still pending is left failed
    const busy = csvWith(
      { "71234563": { image: `${base}/pictures/civic-1.png` } },
      { lotPrefix: "76" },
    );
    unavailable.set("/pictures/civic-1.png", 1_000);
    await importCopartCsv(Readable.from([busy]));
    const busyLot = await lotRow("76234563");
    await sequelize.query(
      "UPDATE graphile_worker._private_jobs SET attempts = max_attempts - 1 WHERE key = :key",
      { replacements: { key: `lot-pictures:${busyLot.id}` } },
    );
    await runPictureJobs();
    const [givenUp] = await imagesOf("76234563");
    expect(givenUp).toMatchObject({
      status: "failed",
      error: `given up after ${LOT_PICTURE_LIMITS.maxAttempts} tries: HTTP 503`,
    });
    expect(await pictureJobsOf(busyLot.id)).toEqual([]);
    unavailable.clear();
  });

  it("queues a lot's job in the transaction that records its pictures: a rolled-back write queues none", async () => {
    await clearJobs();
    const lot = await lotRow("71234561");
    await expect(
      sequelize.transaction(async (transaction) => {
        await sequelize.query(
          `INSERT INTO lot_images (lot_id, source, position, source_url)
           VALUES (:lotId, 'catalogue', 50, :url)`,
          { replacements: { lotId: lot.id, url: `${base}/pictures/camry.jpg` }, transaction },
        );
        await queueLotPictures([lot.id], transaction);
        expect(await pictureJobsOf(lot.id)).toEqual([]); // not visible outside it yet
        throw new Error("the import failed");
      }),
    ).rejects.toThrow("the import failed");
    expect(await pictureJobsOf(lot.id)).toEqual([]);
    expect((await imagesOf("71234561")).filter((i) => i.position === 50)).toEqual([]);
  });

  it("refuses a decompression bomb and a truncated picture at once, naming the problem (record 3209)", async () => {
    const csv = csvWith(
      {
        "71234561": { image: `${base}/pictures/bomb.png` },
        "71234562": { image: `${base}/pictures/cut.png` },
      },
      { lotPrefix: "74" },
    );
    await importCopartCsv(Readable.from([csv]));
    await runPictureJobs();
    const [bomb] = await imagesOf("74234561");
    expect(bomb).toMatchObject({ status: "failed", storage_key: null });
    expect(bomb.error).toBe("This image is too large to read: at most 50 megapixels");
    const [cut] = await imagesOf("74234562");
    expect(cut).toMatchObject({ status: "failed", storage_key: null });
    expect(cut.error).toBe("cannot be read as a picture");
    expect((await lotRow("74234561")).image_urls).toEqual([]);
    expect((await lotRow("74234562")).image_urls).toEqual([]);
  });

  it("fetches only http(s), only public addresses outside tests, under a size cap and a time limit", async () => {
    for (const url of ["file:///etc/passwd", "ftp://example.com/a.jpg", "javascript:alert(1)"])
      expect(() => checkRemoteUrl(url, true), url).toThrow(/only http and https/);
    expect(() => checkRemoteUrl("https://user:pw@example.com/a.jpg", true)).toThrow(/password/);
    for (const url of [
      `${base}/pictures/camry.jpg`,
      "http://localhost/a.jpg",
      "http://10.0.0.8/a.jpg",
      "http://169.254.169.254/latest/meta-data",
      "http://[::1]/a.jpg",
      "http://[::ffff:127.0.0.1]/a.jpg",
      "http://intranet/a.jpg",
    ])
      expect(() => checkRemoteUrl(url, false), url).toThrow(/not a public/);
    expect(checkRemoteUrl("https://cs.copart.com/v1/a_ful.jpg", false).hostname).toBe(
      "cs.copart.com",
    );
    expect(isPublicAddress("8.8.8.8")).toBe(true);
    expect(isPublicAddress("2606:4700:4700::1111")).toBe(true);
    for (const address of ["127.0.0.1", "10.1.2.3", "172.20.0.1", "192.168.1.1", "::1", "fd00::1"])
      expect(isPublicAddress(address), address).toBe(false);
    expect(isPublicAddress("::ffff:7f00:1")).toBe(false);
    // IPv4-compatible IPv6 (a URL writes [::127.0.0.1] as [::7f00:1]) and the other ranges the
    // address-range library knows: never fetched (docs/decisions/3012)
    for (const url of [
      "http://[::127.0.0.1]/a.jpg",
      "http://[::7f00:1]/a.jpg",
      "http://[::a9fe:a9fe]/latest/meta-data",
      "http://0177.0.0.1/a.jpg",
      "http://2130706433/a.jpg",
      "http://100.64.0.1/a.jpg",
      "http://[64:ff9b::7f00:1]/a.jpg",
      "http://[2002:7f00:1::]/a.jpg",
    ])
      expect(() => checkRemoteUrl(url, false), url).toThrow(/not a public/);
    for (const address of [
      "::7f00:1",
      "::10.0.0.1",
      "0.0.0.0",
      "100.64.0.1",
      "198.18.0.1",
      "255.255.255.255",
      "224.0.0.1",
      "2001:db8::1",
      "fe80::1",
      "ff02::1",
    ])
      expect(isPublicAddress(address), address).toBe(false);
    expect(isPublicAddress("::ffff:8.8.8.8")).toBe(true);

    await expect(
      fetchRemote(`${base}/pictures/camry.jpg`, {
        timeoutMs: 5000,
        maxBytes: 100,
        allowPrivate: true,
      }),
    ).rejects.toMatchObject({ permanent: true, message: "larger than 100 bytes" });
    const slow = fetchRemote(`${base}/slow`, {
      timeoutMs: 300,
      maxBytes: 1000,
      allowPrivate: true,
    });
    await expect(slow).rejects.toBeInstanceOf(RemoteFetchError);
    await expect(slow).rejects.toMatchObject({ permanent: false, message: /no answer within/ });

    // a public-looking name that resolves to this machine is refused where it is resolved, at
    // connect time (and fetched when private addresses are allowed: the check is on that path)
    hits.clear();
    msw.use(mswHttp.all(/^http:\/\/pictures\.example\.com(:\d+)?\//, () => passthrough()));
    const lookup = vi
      .spyOn(dns, "lookup")
      .mockImplementation(((
        _host: string,
        options: dns.LookupOptions,
        callback: (e: null, a: string | dns.LookupAddress[], f?: number) => void,
      ) =>
        options.all
          ? callback(null, [{ address: "127.0.0.1", family: 4 }])
          : callback(null, "127.0.0.1", 4)) as unknown as typeof dns.lookup);
    try {
      const port = new URL(base).port;
      const named = `http://pictures.example.com:${port}/pictures/camry.jpg`;
      expect(checkRemoteUrl(named, false).hostname).toBe("pictures.example.com");
      await expect(
        fetchRemote(named, { timeoutMs: 5000, maxBytes: 1_000_000, allowPrivate: false }),
      ).rejects.toMatchObject({
        permanent: true,
        message: "pictures.example.com resolves to 127.0.0.1, not a public address",
      });
      expect(hits.get("/pictures/camry.jpg")).toBeUndefined();
      const allowed = await fetchRemote(named, {
        timeoutMs: 5000,
        maxBytes: 1_000_000,
        allowPrivate: true,
      });
      expect(allowed.bytes.length).toBe(files.get("/pictures/camry.jpg")!.body.length);
      expect(lookup).toHaveBeenCalled();
    } finally {
      lookup.mockRestore();
      msw.resetHandlers();
    }

    // the fetcher as production runs it: a private address fails at once, nothing is fetched
    const csv = csvWith(
      { "71234561": { image: `${base}/pictures/camry.jpg` } },
      { lotPrefix: "74" },
    );
    await importCopartCsv(Readable.from([csv]));
    hits.clear();
    const refusedLot = await lotRow("74234561");
    expect(await fetchPicturesOfLot(refusedLot.id, { allowPrivate: false })).toMatchObject({
      failed: 1,
    });
    const [refused] = await imagesOf("74234561");
    expect(refused).toMatchObject({ status: "failed" });
    expect(refused.error).toMatch(/127\.0\.0\.1 is not a public address/);
    expect(hits.size).toBe(0);
  });

  it("reads Copart's cells and lists: scheme-less addresses, sound and video left out", () => {
    expect(feedPictureUrl("cs.copart.com/v1/AUTH_svc.pdoc00001/lpp/0923/a_thb.jpg")).toBe(
      "https://cs.copart.com/v1/AUTH_svc.pdoc00001/lpp/0923/a_thb.jpg",
    );
    expect(feedPictureUrl("  ")).toBeNull();
    expect(feedPictureUrl("not a url")).toBeNull();
    expect(feedPictureUrl("javascript:alert(1)")).toBe("javascript:alert(1)");
    const list = (body: unknown) => copartPictureList(Buffer.from(JSON.stringify(body)));
    expect(
      list({
        lotImages: [
          { sequence: 90, link: [{ url: "https://cs.copart.com/x/engine.mp3" }] },
          { sequence: 1, link: [{ url: "https://cs.copart.com/x/1_ful.jpg" }] },
        ],
      }),
    ).toEqual(["https://cs.copart.com/x/1_ful.jpg"]);
    expect(list({ something: "else" })).toBeNull();
    expect(copartPictureList(Buffer.from("<html></html>"))).toBeNull();
  });

  it("the import command fetches the pictures after the rows and prints its progress", async () => {
    const uploads = fs.mkdtempSync(path.join(os.tmpdir(), "bidyard-import-pictures-"));
    const file = path.join(uploads, "sales.csv");
    fs.writeFileSync(
      file,
      csvWith(
        {
          "71234561": { image: `${base}/pictures/camry.jpg` },
          "71234562": { image: `${base}/pictures/civic-2.webp` },
        },
        { lotPrefix: "75" },
      ),
    );
    try {
      const { stdout } = await promisify(execFile)(
        "npx",
        ["tsx", "scripts/import-lots.ts", "--house", "copart", file],
        { env: { ...process.env, UPLOADS_DIR: uploads }, timeout: 60_000 },
      );
      expect(stdout).toMatch(/4 rows: 4 new/);
      expect(stdout).toMatch(/^pictures: \d+\/\d+ stored/m);
      expect((await imagesOf("75234561"))[0].status).toBe("stored");
      expect((await imagesOf("75234562"))[0].status).toBe("stored");
    } finally {
      fs.rmSync(uploads, { recursive: true, force: true });
    }
  });
});
