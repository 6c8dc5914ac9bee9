// Small files with real signatures (and impostors) for the upload tests. The images are real
// (they decode: every kept image is decoded, record 3209), a few dozen bytes each.
import { crc32, deflateRawSync, constants as zlib } from "node:zlib";

const base64 = (text: string) => Uint8Array.from(Buffer.from(text, "base64"));

/** A real 2×2 PNG (94 bytes). */
export const PNG_BYTES = base64(
  "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEElEQVQI12PQiuoCIgYIBQAcFgQ5ALm8KgAAAABJRU5ErkJggg==",
);
/** A real 8×8 JPEG (268 bytes). */
export const JPEG_BYTES = base64(
  "/9j/2wBDABALDA4MChAODQ4SERATGCgaGBYWGDEjJR0oOjM9PDkzODdASFxOQERXRTc4UG1RV19iZ2hnPk1xeXBkeFxlZ2P/2wBDARESEhgVGC8aGi9jQjhCY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2P/wAARCAAIAAgDASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAX/xAAUEAEAAAAAAAAAAAAAAAAAAAAA/8QAFAEBAAAAAAAAAAAAAAAAAAAABP/EABQRAQAAAAAAAAAAAAAAAAAAAAD/2gAMAwEAAhEDEQA/AI4B4T//2Q==",
);
/** A PNG cut off inside its pixel data: the header is right, the picture is not all there. */
export const TRUNCATED_PNG_BYTES = PNG_BYTES.subarray(0, PNG_BYTES.length - 30);

function pngChunk(type: string, data: Uint8Array) {
  const typed = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const head = Buffer.alloc(4);
  head.writeUInt32BE(data.length);
  const tail = Buffer.alloc(4);
  tail.writeUInt32BE(crc32(typed));
  return Buffer.concat([head, typed, tail]);
}

let bomb: Uint8Array | undefined;

/**
 * A decompression bomb: a complete, valid 20000×20000 grey PNG (400 megapixels, all black) in
 * about 389 KB. Its zlib stream is one compressed block of 500 zero rows repeated 40 times (a
 * sync-flushed block stands alone), so it is built in milliseconds, not by deflating 400 MB.
 */
export function decompressionBombPng(): Uint8Array {
  if (bomb) return bomb;
  const width = 20_000;
  const height = 20_000;
  const rowsPerBlock = 500;
  const block = deflateRawSync(Buffer.alloc((width + 1) * rowsPerBlock), {
    level: 9,
    finishFlush: zlib.Z_SYNC_FLUSH,
  });
  const raw = (width + 1) * height;
  const adler = Buffer.alloc(4);
  // Adler-32 of `raw` zero bytes: a stays 1, b adds 1 per byte
  adler.writeUInt32BE((((raw % 65521) << 16) | 1) >>> 0);
  const zlibStream = Buffer.concat([
    Buffer.from([0x78, 0xda]),
    ...Array.from({ length: height / rowsPerBlock }, () => block),
    Buffer.from([0x03, 0x00]), // a final, empty fixed-Huffman block
    adler,
  ]);
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // greyscale
  bomb = new Uint8Array(
    Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      pngChunk("IHDR", header),
      pngChunk("IDAT", zlibStream),
      pngChunk("IEND", new Uint8Array()),
    ]),
  );
  return bomb;
}

export const PDF_BYTES = new TextEncoder().encode("%PDF-1.7\n1 0 obj\n<<>>\nendobj\n%%EOF\n");
/** A Windows executable's header, whatever its name says. */
export const EXE_BYTES = Uint8Array.from([0x4d, 0x5a, 0x90, 0, 3, 0, 0, 0, 4, 0, 0, 0, 0xff, 0xff]);
/** A PDF cut off inside its header. */
export const TRUNCATED_PDF_BYTES = new TextEncoder().encode("%PDF-");
export const ELEVEN_MB = 11 * 1024 * 1024;

/** `size` bytes that start like a PNG. */
export function bigPng(size: number) {
  const bytes = new Uint8Array(size);
  bytes.set(PNG_BYTES);
  return bytes;
}
