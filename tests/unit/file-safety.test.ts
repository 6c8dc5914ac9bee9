// The content rules behind the upload checks (docs/decisions/0902-upload-content-rules.md):
// what they refuse, and that real photos and documents are not refused by chance.
import { deflateSync } from "node:zlib";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { activeContentIn, isUnsafeFileName } from "~/platform/file-safety.server";

const text = (value: string) => new TextEncoder().encode(value);
const join = (...parts: Uint8Array[]) => new Uint8Array(Buffer.concat(parts));

async function noisy(format: "jpeg" | "png", seed: number) {
  const image = sharp({
    create: {
      width: 800 + seed,
      height: 600,
      channels: 3,
      background: { r: seed % 255, g: 80, b: 160 },
      noise: { type: "gaussian", mean: 128, sigma: 70 },
    },
  });
  const data = await (format === "jpeg" ? image.jpeg({ quality: 95 }) : image.png()).toBuffer();
  return new Uint8Array(data);
}

function pdf(body: string) {
  return text(`%PDF-1.7\n${body}\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n`);
}

describe("activeContentIn", () => {
  it("lets 24 noisy photos (about 20 MB of compressed pixels) through", async () => {
    for (let seed = 0; seed < 12; seed++) {
      for (const format of ["jpeg", "png"] as const) {
        const bytes = await noisy(format, seed);
        expect(activeContentIn(bytes, format === "jpeg" ? "jpg" : "png"), `${format} ${seed}`).toBe(
          null,
        );
      }
    }
  });

  it("finds markup after a JPEG's end, in its comment, or where its structure breaks", async () => {
    const photo = await noisy("jpeg", 1);
    expect(activeContentIn(join(photo, text("<html><body>hi</body></html>")), "jpg")).toMatch(
      /<html/,
    );
    const comment = join(
      Uint8Array.from([0xff, 0xd8, 0xff, 0xfe, 0x00, 0x0a]),
      text("<svg/>  "),
      photo.subarray(2),
    );
    expect(activeContentIn(comment, "jpg")).toMatch(/<svg/);
    const broken = join(Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0, 4, 0, 0]), text("<meta x>"));
    expect(activeContentIn(broken, "jpg")).toMatch(/<meta/);
  });

  it("finds a PHP tag in a PNG text chunk", () => {
    const signature = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const data = text("Comment\0<?php echo 1; ?>");
    const header = Buffer.alloc(8);
    header.writeUInt32BE(data.byteLength, 0);
    header.write("tEXt", 4, "latin1");
    const chunk = join(header, data, new Uint8Array(4));
    expect(activeContentIn(join(signature, chunk), "png")).toMatch(/<\?php/);
  });

  it("refuses PDF actions, plain, hex-escaped or inside a compressed object stream", () => {
    expect(activeContentIn(pdf("1 0 obj\n<< /Type /Catalog >>\nendobj"), "pdf")).toBe(null);
    expect(activeContentIn(pdf("1 0 obj\n<< /OpenAction [2 0 R /Fit] >>\nendobj"), "pdf")).toBe(
      null,
    );
    expect(activeContentIn(pdf("1 0 obj\n<< /S /JavaScript /JS (x) >>\nendobj"), "pdf")).toMatch(
      /JavaScript/,
    );
    expect(activeContentIn(pdf("1 0 obj\n<< /S /Launch /F (calc.exe) >>\nendobj"), "pdf")).toMatch(
      /Launch/,
    );
    expect(activeContentIn(pdf("1 0 obj\n<< /S /Java#53cript >>\nendobj"), "pdf")).toMatch(
      /JavaScript/,
    );
    const hidden = deflateSync(Buffer.from("2 0 << /S /JavaScript /JS (app.alert(1)) >>"));
    const objectStream = Buffer.concat([
      Buffer.from(
        `3 0 obj\n<< /Type /ObjStm /Filter /FlateDecode /Length ${hidden.length} >>\nstream\n`,
      ),
      hidden,
      Buffer.from("\nendstream\nendobj"),
    ]);
    expect(activeContentIn(pdf(objectStream.toString("latin1")), "pdf")).toMatch(/JavaScript/);
  });

  it("does not read a PDF's compressed image streams as text", () => {
    const noise = Buffer.alloc(2_000_000);
    for (let i = 0; i < noise.length; i++) noise[i] = (i * 2654435761) >>> 24;
    noise.write("<svg", 1000, "latin1"); // a short marker by chance inside compressed data
    const body = Buffer.concat([
      Buffer.from(`4 0 obj\n<< /Filter /DCTDecode /Length ${noise.length} >>\nstream\n`),
      noise,
      Buffer.from("\nendstream\nendobj"),
    ]);
    expect(
      activeContentIn(new Uint8Array(Buffer.concat([Buffer.from("%PDF-1.7\n"), body])), "pdf"),
    ).toBe(null);
  });
});

describe("isUnsafeFileName", () => {
  it("refuses names that are paths, dots or control characters; allows ordinary names", () => {
    for (const name of [
      "..",
      ".",
      "a/b.png",
      "..\\x.png",
      "x\u0000.png",
      "a\nb.jpg",
      "x".repeat(256),
    ])
      expect(isUnsafeFileName(name), JSON.stringify(name)).toBe(true);
    for (const name of ["id.jpg", "my..photo.png", "Passport (1).pdf", "", undefined])
      expect(isUnsafeFileName(name), JSON.stringify(name)).toBe(false);
  });
});
