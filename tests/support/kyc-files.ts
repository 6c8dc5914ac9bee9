// Small files with real signatures (and impostors) for the upload tests.
export const PNG_BYTES = Uint8Array.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1,
]);
export const JPEG_BYTES = Uint8Array.from([
  0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0,
]);
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
