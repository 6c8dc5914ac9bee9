// What an accepted file may not carry besides its type's own bytes: markup a browser would run
// (a polyglot such as a JPEG header followed by HTML, an SVG, a PHP tag) and, in a PDF, actions
// that run code or open other files. See docs/decisions/0902-upload-content-rules.md and
// docs/decisions/1304-pdf-object-streams-decoded.md.
import { inflateSync } from "node:zlib";
import type { DetectedFileType, ImageFileType } from "~/utils/file-type";

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

/** Decoded object streams are read up to this many bytes in all (a bound on a zip bomb). */
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

/** WebP chunks that hold compressed pixels; every other chunk (EXIF, XMP, ICC …) may hold text. */
const WEBP_PIXEL_CHUNKS = new Set(["VP8 ", "VP8L", "ALPH", "ANMF"]);

/** The parts of a WebP that are not compressed pixels: other chunks, and what follows the RIFF. */
function webpTextRegions(bytes: Uint8Array): Uint8Array[] {
  const regions: Uint8Array[] = [];
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 12) return [bytes];
  const end = Math.min(bytes.length, 8 + view.getUint32(4, true));
  let pos = 12;
  while (pos + 8 <= end) {
    const type = String.fromCharCode(...bytes.subarray(pos, pos + 4));
    const length = view.getUint32(pos + 4, true);
    if (!/^[A-Za-z0-9 ]{4}$/.test(type)) {
      regions.push(bytes.subarray(pos));
      return regions;
    }
    const start = pos + 8;
    if (!WEBP_PIXEL_CHUNKS.has(type)) regions.push(bytes.subarray(start, start + length));
    pos = start + length + (length % 2);
  }
  if (pos < bytes.length) regions.push(bytes.subarray(Math.min(pos, end)));
  return regions;
}

const unescapeNames = (text: string) =>
  text.replace(
    /\/([^\s/<>[\]()%{}]*)/g,
    (_, name: string) =>
      `/${name.replace(/#([0-9A-Fa-f]{2})/g, (__, hex: string) => String.fromCharCode(parseInt(hex, 16)))}`,
  );

class Undecodable extends Error {}

/** The filters a stream dictionary names, in order, or null when it names them indirectly. */
function filtersOf(dictionary: string): string[] | null {
  const match = /\/Filter\s*(\/[^\s/<>[\]()%{}]+|\[[^\]]*\]|\d+\s+\d+\s+R)/.exec(dictionary);
  if (!match) return [];
  if (/R$/.test(match[1])) return null;
  return [...match[1].matchAll(/\/([^\s/<>[\]()%{}]+)/g)].map((m) => m[1]);
}

/** Predictor settings: the first /Predictor and /Columns, /Colors, /BitsPerComponent seen. */
function predictorOf(dictionary: string) {
  const number = (name: string, fallback: number) => {
    const match = new RegExp(`/${name}\\s+(\\d+)`).exec(dictionary);
    return match ? Number(match[1]) : fallback;
  };
  return {
    predictor: number("Predictor", 1),
    columns: number("Columns", 1),
    colors: number("Colors", 1),
    bits: number("BitsPerComponent", 8),
    earlyChange: number("EarlyChange", 1),
  };
}

function asciiHex(data: Buffer): Buffer {
  const digits = data.toString("latin1").replace(/\s+/g, "");
  const end = digits.indexOf(">");
  const hex = end >= 0 ? digits.slice(0, end) : digits;
  if (!/^[0-9A-Fa-f]*$/.test(hex)) throw new Undecodable("ASCIIHexDecode");
  return Buffer.from(hex.length % 2 ? `${hex}0` : hex, "hex");
}

function ascii85(data: Buffer): Buffer {
  let text = data.toString("latin1").replace(/\s+/g, "");
  if (text.startsWith("<~")) text = text.slice(2);
  const end = text.indexOf("~>");
  if (end >= 0) text = text.slice(0, end);
  const out: number[] = [];
  let group: number[] = [];
  const flush = (count: number) => {
    let value = 0;
    for (let i = 0; i < 5; i++) value = value * 85 + (group[i] ?? 84);
    const bytes = [(value >>> 24) & 255, (value >>> 16) & 255, (value >>> 8) & 255, value & 255];
    out.push(...bytes.slice(0, count));
    group = [];
  };
  for (const char of text) {
    if (char === "z" && group.length === 0) {
      out.push(0, 0, 0, 0);
      continue;
    }
    const code = char.charCodeAt(0) - 33;
    if (code < 0 || code > 84) throw new Undecodable("ASCII85Decode");
    group.push(code);
    if (group.length === 5) flush(4);
  }
  if (group.length === 1) throw new Undecodable("ASCII85Decode");
  if (group.length > 1) flush(group.length - 1);
  return Buffer.from(out);
}

function runLength(data: Buffer): Buffer {
  const out: number[] = [];
  for (let pos = 0; pos < data.length;) {
    const length = data[pos++];
    if (length === 128) break;
    if (length < 128) {
      for (let i = 0; i <= length && pos < data.length; i++) out.push(data[pos++]);
    } else if (pos < data.length) {
      for (let i = 0; i < 257 - length; i++) out.push(data[pos]);
      pos++;
    }
    if (out.length > MAX_INFLATED_BYTES) throw new Undecodable("RunLengthDecode");
  }
  return Buffer.from(out);
}

function lzw(data: Buffer, earlyChange: number): Buffer {
  const out: number[] = [];
  let table: number[][] = [];
  const reset = () => {
    table = Array.from({ length: 258 }, (_, i) => [i]);
  };
  reset();
  let width = 9;
  let previous: number[] | null = null;
  let bitBuffer = 0;
  let bitCount = 0;
  for (const byte of data) {
    bitBuffer = (bitBuffer << 8) | byte;
    bitCount += 8;
    while (bitCount >= width) {
      const code = (bitBuffer >>> (bitCount - width)) & ((1 << width) - 1);
      bitCount -= width;
      bitBuffer &= (1 << bitCount) - 1;
      if (code === 256) {
        reset();
        width = 9;
        previous = null;
        continue;
      }
      if (code === 257) return Buffer.from(out);
      let entry: number[];
      if (code < table.length) entry = table[code];
      else if (code === table.length && previous) entry = [...previous, previous[0]];
      else throw new Undecodable("LZWDecode");
      out.push(...entry);
      if (out.length > MAX_INFLATED_BYTES) throw new Undecodable("LZWDecode");
      if (previous) table.push([...previous, entry[0]]);
      previous = entry;
      if (table.length + earlyChange >= 1 << width && width < 12) width++;
    }
  }
  return Buffer.from(out);
}

/** Undoes a PNG (10-15) or TIFF (2) predictor, as a PDF reader would before parsing. */
function unpredict(data: Buffer, settings: ReturnType<typeof predictorOf>): Buffer {
  const { predictor, columns, colors, bits } = settings;
  if (predictor <= 1) return data;
  const pixelBytes = Math.max(1, Math.ceil((colors * bits) / 8));
  const rowBytes = Math.ceil((columns * colors * bits) / 8);
  if (predictor === 2) {
    if (bits !== 8) throw new Undecodable("TIFF predictor");
    const out = Buffer.from(data);
    for (let row = 0; row < out.length; row += rowBytes) {
      for (let i = pixelBytes; i < rowBytes && row + i < out.length; i++) {
        out[row + i] = (out[row + i] + out[row + i - pixelBytes]) & 255;
      }
    }
    return out;
  }
  if (predictor < 10 || predictor > 15) throw new Undecodable("predictor");
  const rows: Buffer[] = [];
  let above = Buffer.alloc(rowBytes);
  for (let pos = 0; pos < data.length; pos += rowBytes + 1) {
    const type = data[pos];
    const row = Buffer.from(data.subarray(pos + 1, pos + 1 + rowBytes));
    for (let i = 0; i < row.length; i++) {
      const left = i >= pixelBytes ? row[i - pixelBytes] : 0;
      const up = above[i];
      const upLeft = i >= pixelBytes ? above[i - pixelBytes] : 0;
      if (type === 1) row[i] = (row[i] + left) & 255;
      else if (type === 2) row[i] = (row[i] + up) & 255;
      else if (type === 3) row[i] = (row[i] + ((left + up) >> 1)) & 255;
      else if (type === 4) {
        const p = left + up - upLeft;
        const [pa, pb, pc] = [Math.abs(p - left), Math.abs(p - up), Math.abs(p - upLeft)];
        row[i] = (row[i] + (pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft)) & 255;
      } else if (type !== 0) throw new Undecodable("PNG predictor");
    }
    rows.push(row);
    above = row;
  }
  return Buffer.concat(rows);
}

/**
 * A stream's data through every filter it names (the standard ones a reader applies to an
 * object stream). Throws Undecodable for anything else (image codecs, Crypt, an unknown name),
 * for broken data, and past the size bound (a decompression bomb).
 */
function decodeStream(data: Buffer, dictionary: string, budget: number): Buffer {
  const filters = filtersOf(dictionary);
  if (filters === null) throw new Undecodable("indirect /Filter");
  const settings = predictorOf(dictionary);
  let out = data;
  for (const filter of filters) {
    switch (filter) {
      case "FlateDecode":
      case "Fl":
        try {
          out = inflateSync(out, { maxOutputLength: Math.max(1, budget) });
        } catch {
          throw new Undecodable("FlateDecode");
        }
        out = unpredict(out, settings);
        break;
      case "LZWDecode":
      case "LZW":
        out = unpredict(lzw(out, settings.earlyChange), settings);
        break;
      case "ASCIIHexDecode":
      case "AHx":
        out = asciiHex(out);
        break;
      case "ASCII85Decode":
      case "A85":
        out = ascii85(out);
        break;
      case "RunLengthDecode":
      case "RL":
        out = runLength(out);
        break;
      default:
        throw new Undecodable(filter);
    }
    if (out.byteLength > budget) throw new Undecodable("size");
  }
  return out;
}

/**
 * A PDF split into its syntax (everything outside streams, plus unfiltered streams) and its
 * object streams decoded through every standard filter (where a dictionary naming /JavaScript can
 * hide). An object stream that cannot be decoded (an image codec, encryption, broken or too big
 * data) is refused. Other filtered streams (images, page drawing) are not read as text.
 */
function pdfTextRegions(bytes: Uint8Array, text: string): string[] {
  const regions: string[] = [];
  const encrypted = /\/Encrypt\b/.test(unescapeNames(text));
  let decoded = 0;
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
    const dictionary = unescapeNames(text.slice(Math.max(0, objectStart), match.index));
    if (!dictionary.includes("/Filter")) {
      regions.push(text.slice(start, end));
    } else if (/\/Type\s*\/ObjStm\b/.test(dictionary)) {
      try {
        // Encrypted object streams cannot be read without the key: refused like broken ones.
        if (encrypted) throw new Undecodable("encrypted");
        const data = Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start);
        const out = decodeStream(data, dictionary, MAX_INFLATED_BYTES - decoded);
        decoded += out.byteLength;
        regions.push(out.toString("latin1"));
      } catch {
        // Past the bound, or data we cannot decode: an object stream we cannot read is refused.
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
export function activeContentIn(
  bytes: Uint8Array,
  type: DetectedFileType | ImageFileType,
): string | null {
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
  const regions =
    type === "jpg"
      ? jpegTextRegions(bytes)
      : type === "webp"
        ? webpTextRegions(bytes)
        : pngTextRegions(bytes);
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
  // eslint-disable-next-line no-control-regex -- a control character in a name refuses it
  if (/[/\\]/.test(name) || /[\u0000-\u001f\u007f]/.test(name)) return true;
  const trimmed = name.trim();
  return trimmed === "." || trimmed === ".." || name.length > 255;
}
