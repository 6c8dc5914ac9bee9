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

  it("decodes object streams through every standard filter, and refuses what it cannot decode", () => {
    const action = "2 0 << /Type /Catalog /OpenAction << /S /JavaScript /JS (app.alert(1)) >> >>";
    const clean = "2 0 << /Type /Catalog /Pages 3 0 R >>";
    const objectStream = (dictionary: string, data: Buffer | string) => {
      const bytes = Buffer.isBuffer(data) ? data : Buffer.from(data, "latin1");
      // Binary stream data as bytes (the text helper would re-encode it as UTF-8).
      return new Uint8Array(
        Buffer.concat([
          Buffer.from(
            `%PDF-1.7\n3 0 obj\n<< /Type /ObjStm /N 1 /First 4 ${dictionary} /Length ${bytes.length} >>\nstream\n`,
          ),
          bytes,
          Buffer.from("\nendstream\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n"),
        ]),
      );
    };
    const hex = (value: string | Buffer) => `${Buffer.from(value).toString("hex")}>`;
    const ascii85 = (value: string) => {
      const bytes = Buffer.from(value);
      let out = "";
      for (let i = 0; i < bytes.length; i += 4) {
        const chunk = Buffer.alloc(4);
        bytes.copy(chunk, 0, i, i + 4);
        let n = chunk.readUInt32BE(0);
        const digits: string[] = [];
        for (let d = 0; d < 5; d++) {
          digits.unshift(String.fromCharCode((n % 85) + 33));
          n = Math.floor(n / 85);
        }
        out += digits.slice(0, Math.min(5, bytes.length - i + 1)).join("");
      }
      return `${out}~>`;
    };
    const runLength = (value: string) =>
      Buffer.concat([Buffer.from([value.length - 1]), Buffer.from(value), Buffer.from([128])]);
    // PNG "Up" predictor over rows of 4 bytes, then deflate: the bytes are not the text any more.
    const predicted = (value: string) => {
      const bytes = Buffer.from(value.padEnd(Math.ceil(value.length / 4) * 4, " "));
      const rows: Buffer[] = [];
      for (let i = 0; i < bytes.length; i += 4) {
        const row = Buffer.alloc(5);
        row[0] = 2;
        for (let j = 0; j < 4; j++) row[j + 1] = (bytes[i + j] - (i ? bytes[i + j - 4] : 0)) & 255;
        rows.push(row);
      }
      return deflateSync(Buffer.concat(rows));
    };

    const cases: Array<[string, (v: string) => Buffer | string]> = [
      ["/Filter /ASCIIHexDecode", hex],
      ["/Filter /AHx", hex],
      ["/Filter /ASCII85Decode", ascii85],
      ["/Filter /RunLengthDecode", runLength],
      ["/Filter [/ASCIIHexDecode /FlateDecode]", (v) => hex(deflateSync(Buffer.from(v)))],
      ["/Filter /FlateDecode /DecodeParms << /Predictor 12 /Columns 4 >>", predicted],
      ["/Filt#65r /ASCIIH#65xDecode", hex],
    ];
    for (const [dictionary, encode] of cases) {
      expect(activeContentIn(objectStream(dictionary, encode(action)), "pdf"), dictionary).toMatch(
        /JavaScript/,
      );
      expect(activeContentIn(objectStream(dictionary, encode(clean)), "pdf"), dictionary).toBe(
        null,
      );
    }
    // The type itself hex-escaped is still an object stream.
    const escapedType = pdf(
      `3 0 obj\n<< /Type /Obj#53tm /Filter /AHx >>\nstream\n${hex(action)}\nendstream\nendobj`,
    );
    expect(activeContentIn(escapedType, "pdf")).toMatch(/JavaScript/);
    // What cannot be decoded is refused: an image codec, an indirect filter, broken data,
    // encryption.
    for (const dictionary of ["/Filter /DCTDecode", "/Filter 9 0 R", "/Filter /FlateDecode"]) {
      expect(activeContentIn(objectStream(dictionary, clean), "pdf"), dictionary).toMatch(
        /JavaScript/,
      );
    }
    const encrypted = text(
      new TextDecoder("latin1")
        .decode(objectStream("/Filter /AHx", hex(clean)))
        .replace("<< /Root 1 0 R >>", "<< /Root 1 0 R /Encrypt 9 0 R >>"),
    );
    expect(activeContentIn(encrypted, "pdf")).toMatch(/JavaScript/);
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
