/**
 * What a file really is, judged by its first bytes (never by its name or declared type).
 * Shared by the server (the truth) and the browser (an early hint).
 */
export type DetectedFileType = "jpg" | "png" | "pdf";

export const FILE_TYPES: Record<DetectedFileType, { contentType: string; extension: string }> = {
  jpg: { contentType: "image/jpeg", extension: "jpg" },
  png: { contentType: "image/png", extension: "png" },
  pdf: { contentType: "application/pdf", extension: "pdf" },
};

/** How many leading bytes `detectFileType` needs to decide. */
export const FILE_TYPE_SNIFF_BYTES = 8;

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/**
 * 'jpg' (FF D8 FF), 'png' (the full 8-byte signature) or 'pdf' ("%PDF-1." or "%PDF-2."), else null.
 * A truncated header (fewer bytes than the signature) is null.
 */
export function detectFileType(bytes: Uint8Array): DetectedFileType | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) {
    return "jpg";
  }
  if (bytes.length >= 8 && PNG.every((byte, i) => bytes[i] === byte)) return "png";
  if (bytes.length >= 8) {
    const head = String.fromCharCode(...bytes.subarray(0, 8));
    if (/^%PDF-[12]\.\d$/.test(head)) return "pdf";
  }
  return null;
}

/** Pictures taken from outside feeds: JPEG, PNG and WebP (documents never come this way). */
export type ImageFileType = "jpg" | "png" | "webp";

export const IMAGE_CONTENT_TYPES: Record<ImageFileType, string> = {
  jpg: "image/jpeg",
  png: "image/png",
  webp: "image/webp",
};

/** How many leading bytes `detectImageType` needs to decide ("RIFF" size "WEBP"). */
export const IMAGE_TYPE_SNIFF_BYTES = 12;

/** 'jpg', 'png' or 'webp' by the first bytes, else null (a PDF here is null too). */
export function detectImageType(bytes: Uint8Array): ImageFileType | null {
  const type = detectFileType(bytes);
  if (type === "jpg" || type === "png") return type;
  if (bytes.length >= 12) {
    const riff = String.fromCharCode(...bytes.subarray(0, 4));
    const webp = String.fromCharCode(...bytes.subarray(8, 12));
    if (riff === "RIFF" && webp === "WEBP") return "webp";
  }
  return null;
}

/** The detected type for a MIME type we accept, or null. */
export function fileTypeForContentType(contentType: string): DetectedFileType | null {
  const normalized = contentType.split(";")[0].trim().toLowerCase();
  if (normalized === "image/jpg") return "jpg";
  for (const [type, info] of Object.entries(FILE_TYPES)) {
    if (info.contentType === normalized) return type as DetectedFileType;
  }
  return null;
}

export const MAX_DOCUMENT_BYTES = 10_485_760;

/**
 * The most pixels an image we keep may have (width × height), read before it is decoded: a
 * small file can declare a huge picture (a decompression bomb). See record 3209.
 */
export const MAX_IMAGE_MEGAPIXELS = 50;
export const MAX_IMAGE_PIXELS = MAX_IMAGE_MEGAPIXELS * 1_000_000;

/** What is wrong with an image that does not decode: too many pixels, or damaged/incomplete. */
export type ImageProblem = "pixels" | "unreadable";

export type FileProblem =
  | "missing"
  | "empty"
  | "too_large"
  | "type"
  | "mismatch"
  | "unsafe"
  | "name"
  | ImageProblem
  /** Not the file's fault: the storage service is down (503, try again later). */
  | "unavailable";

/** What the user reads when a file is refused; the same words in the browser and the server. */
export const FILE_PROBLEM_MESSAGES: Record<FileProblem, string> = {
  missing: "Choose a file to upload.",
  empty: "The file is empty. Choose a JPG, PNG or PDF file.",
  too_large: "The file is larger than 10 MB (10,485,760 bytes). Choose a smaller file.",
  type: "Only JPG, PNG or PDF files are accepted. This file is none of them.",
  mismatch:
    "The file's content does not match its type. Only genuine JPG, PNG or PDF files are accepted.",
  unsafe:
    "The file contains web page, script or PDF action content, which is not accepted. Upload a plain JPG, PNG or PDF file.",
  name: "The file's name is not valid (it names a folder path). Rename the file and try again.",
  pixels: `This image is too large to read: at most ${MAX_IMAGE_MEGAPIXELS} megapixels. Choose a smaller image or a PDF.`,
  unreadable:
    "This image could not be read: it is damaged or incomplete. Choose another JPG, PNG or PDF file.",
  unavailable: "File storage is unavailable right now. Please try again in a few minutes.",
};
