// What a US ZIP code looks like: the one check the Ship it form, the all-in estimator and the
// order service share (docs/decisions/1705, 2705). Tiny and table-free, so the browser's schemas
// can use it; the ZIP areas themselves stay on the server (zips.ts).

/** "75201" or "75201-1234". */
export function isZipCode(text: string) {
  return /^\d{5}(-\d{4})?$/.test(text.trim());
}
