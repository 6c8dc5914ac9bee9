// Every image we keep is decoded once, whole, within a pixel limit, before it is kept: a file that
// declares more pixels than MAX_IMAGE_PIXELS (a decompression bomb) or that does not decode to the
// end (truncated, corrupt) is refused with a message naming the problem (record 3209).
import { loadSharp } from "~/platform/sharp.server";
import { MAX_IMAGE_PIXELS, type ImageProblem } from "~/utils/file-type";

/** sharp's options for reading an image we keep: the pixel limit, and damage is an error. */
export const IMAGE_INPUT = { limitInputPixels: MAX_IMAGE_PIXELS, failOn: "error" } as const;

/** The problem a sharp failure on an input image names: the pixel limit, or anything else. */
export function imageProblemOf(error: unknown): ImageProblem {
  return /pixel limit/i.test((error as Error)?.message ?? "") ? "pixels" : "unreadable";
}

/**
 * Null when `bytes` decode to the last pixel within the limit, else the problem. The pixels are
 * read in one pass and shrunk as they go, so the memory is one small picture's, whatever the size.
 */
export async function imageProblem(bytes: Uint8Array): Promise<ImageProblem | null> {
  const sharp = await loadSharp();
  try {
    await sharp(bytes, IMAGE_INPUT)
      .resize({ width: 64, height: 64, fit: "inside" })
      .raw()
      .toBuffer();
    return null;
  } catch (error) {
    return imageProblemOf(error);
  }
}
