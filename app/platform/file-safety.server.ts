// What an accepted file may not carry besides its type's own bytes: markup a browser would run
// (a polyglot such as a JPEG header followed by HTML, an SVG, a PHP tag) and, in a PDF, actions
// that run code or open other files. See docs/decisions/0902-upload-content-rules.md.
import { inflateSync } from "node:zlib";
import type { DetectedFileType } from "~/utils/file-type";

/**
 * Long markers: so unlikely by chance that they are looked for everywhere, compressed pixels
 * included (about one false hit in a million 10 MB files).
 */
const STRONG_MARKUP = ["<script", "<!doctype", "<iframe", "<object", "<embed", "javascript:"];
/** Short markers: looked for only where a file holds text (metadata, trailers, PDF syntax). */
const MARKUP = [...STRONG_MARKUP, "<html", "<body", "<head", "<svg", "<meta", "<?php"];

/** PDF names (after #xx decoding) for scripts, launched programs and files carried inside. */
const PDF_ACTIONS = new Set([
  "JavaScript",
  "JS",
  "Launch",
  "EmbeddedFile",
  "EmbeddedFiles",
  "RichMedia",
  "XFA",
  "SubmitForm",
  "ImportData",
]);

/** Inflated object streams are read up to this many bytes in all (a bound on a zip bomb). */
const MAX_INFLATED_BYTES = 32 * 1024 * 1024;

const latin1 = (bytes: Uint8Array) =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");

function markupIn(text: string, markers = MARKUP): string | null {
  const lower = text.toLowerCase();
  for (const marker of markers) if (lower.includes(marker)) return marker;
  return null;
}

function pdfActionIn(text: string): string | null {
  for (const match of text.matchAll(/\/([^\s/<>[\]()%{}]+)/g)) {
    const name = match[1].replace(/#([0-9A-Fa-f]{2})/g, (_, hex: string) =>
      String.fromCharCode(parseInt(hex, 16)),
    );
    if (PDF_ACTIONS.has(name)) return `/${name}`;
  }
  return null;
}

/**
 * The parts of a JPEG that hold text rather than compressed pixels: APPn and COM segments, what
 * follows the end-of-image marker, and anything from the point the structure stops making sense.
 */
function jpegTextRegions(bytes: Uint8Array): Uint8Array[] {
  const regions: Uint8Array[] = [];
  let pos = 2;
  while (pos < bytes.length) {
    if (bytes[pos] !== 0xff) {
      regions.push(bytes.subarray(pos));
      break;
    }
    while (pos < bytes.length && bytes[pos] === 0xff) pos++;
    const marker = bytes[pos++];
    if (marker === 0xd9) {
      regions.push(bytes.subarray(pos));
      break;
    }
    if (marker === 0x01 || marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7)) continue;
    if (pos + 2 > bytes.length) break;
    const length = (bytes[pos] << 8) | bytes[pos + 1];
    if (length < 2) {
      regions.push(bytes.subarray(pos));
      break;
    }
    if ((marker >= 0xe0 && marker <= 0xef) || marker === 0xfe) {
      regions.push(bytes.subarray(pos + 2, pos + length));
    }
    pos += length;
    if (marker === 0xda) {
      // Entropy-coded data runs to the next marker (FF not followed by 00, a restart or fill).
      while (pos < bytes.length) {
        const next = bytes[pos + 1];
        if (
          bytes[pos] === 0xff &&
          next !== 0x00 &&
          next !== 0xff &&
          !(next >= 0xd0 && next <= 0xd7)
        )
          break;
        pos++;
      }
    }
  }
  return regions;
}

/** The parts of a PNG that are not compressed pixels: every chunk but IDAT/fdAT, and a trailer. */
function pngTextRegions(bytes: Uint8Array): Uint8Array[] {
  const regions: Uint8Array[] = [];
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let pos = 8;
  while (pos + 8 <= bytes.length) {
    const length = view.getUint32(pos);
    const type = String.fromCharCode(...bytes.subarray(pos + 4, pos + 8));
    if (!/^[A-Za-z]{4}$/.test(type)) {
      regions.push(bytes.subarray(pos));
      return regions;
    }
    const start = pos + 8;
    if (type !== "IDAT" && type !== "fdAT") regions.push(bytes.subarray(start, start + length));
    pos = start + length + 4;
    if (type === "IEND") {
      regions.push(bytes.subarray(pos));
      return regions;
    }
  }
  if (pos < bytes.length) regions.push(bytes.subarray(pos));
  return regions;
}

/**
 * A PDF split into its syntax (everything outside streams, plus unfiltered streams) and its
 * compressed object streams inflated (where a dictionary naming /JavaScript can hide). Other
 * filtered streams (images, page drawing) are compressed data and are not read as text.
 */
function pdfTextRegions(bytes: Uint8Array, text: string): string[] {
  const regions: string[] = [];
  let inflated = 0;
  let cursor = 0;
  const keyword = /(?<!end)stream\r?\n/g;
  for (let match = keyword.exec(text); match; match = keyword.exec(text)) {
    regions.push(text.slice(cursor, match.index));
    const start = match.index + match[0].length;
    const end = text.indexOf("endstream", start);
    if (end < 0) {
      // A stream that never ends is read as text (a polyglot cannot hide behind it).
      cursor = start;
      break;
    }
    const objectStart = text.lastIndexOf(" obj", match.index);
    const dictionary = text.slice(Math.max(0, objectStart), match.index);
    if (!dictionary.includes("/Filter")) {
      regions.push(text.slice(start, end));
    } else if (dictionary.includes("/ObjStm") && dictionary.includes("/FlateDecode")) {
      try {
        const out = inflateSync(bytes.subarray(start, end), {
          maxOutputLength: Math.max(1, MAX_INFLATED_BYTES - inflated),
        });
        inflated += out.byteLength;
        regions.push(out.toString("latin1"));
      } catch {
        // Past the bound, or not deflate data: an object stream we cannot read is refused.
        regions.push("/JavaScript");
      }
    }
    cursor = end;
    keyword.lastIndex = end + "endstream".length;
  }
  regions.push(text.slice(cursor));
  return regions;
}

/**
 * Why `bytes` (already known by its first bytes to be `type`) must be refused, or null when it
 * carries nothing active. Reads the whole file: callers hold at most the 10 MB an upload may be.
 */
export function activeContentIn(bytes: Uint8Array, type: DetectedFileType): string | null {
  const text = latin1(bytes);
  const strong = markupIn(text, STRONG_MARKUP);
  if (strong) return `markup ${strong}`;
  if (type === "pdf") {
    for (const region of pdfTextRegions(bytes, text)) {
      const found = markupIn(region) ?? pdfActionIn(region);
      if (found) return `PDF content ${found}`;
    }
    return null;
  }
  const regions = type === "jpg" ? jpegTextRegions(bytes) : pngTextRegions(bytes);
  for (const region of regions) {
    const found = markupIn(latin1(region));
    if (found) return `markup ${found}`;
  }
  return null;
}

/**
 * A file name as the browser sent it that names a path rather than a file: a directory part
 * ("../x.jpg", "C:\\x.jpg"), "." or "..", control characters. Browsers send only the name.
 */
export function isUnsafeFileName(name: string | undefined | null) {
  if (!name) return false;
  if (/[/\\]/.test(name) || /[\u0000-\u001f\u007f]/.test(name)) return true;
  const trimmed = name.trim();
  return trimmed === "." || trimmed === ".." || name.length > 255;
}
