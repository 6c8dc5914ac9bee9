// Checks a file while it streams: refuses it past a byte cap, when empty, or when its first bytes
// are not an accepted type, before the bytes reach storage.
import {
  detectFileType,
  FILE_PROBLEM_MESSAGES,
  FILE_TYPE_SNIFF_BYTES,
  type DetectedFileType,
  type FileProblem,
} from "~/utils/file-type";
import type { ByteSource } from "./types";

export class FileRejectedError extends Error {
  constructor(readonly problem: FileProblem) {
    super(FILE_PROBLEM_MESSAGES[problem]);
    this.name = "FileRejectedError";
  }
}

export type SniffedFile = { type: DetectedFileType; size: number };

/**
 * Wraps `source`: the returned stream yields the same bytes and throws FileRejectedError
 * ('too_large', 'empty', 'type') as soon as the file is known to be unacceptable. After the
 * stream is fully consumed, `result()` gives the detected type and size.
 */
export function sniffFile(
  source: ByteSource,
  options: { maxBytes: number; allowed?: DetectedFileType[] },
) {
  const allowed = options.allowed ?? ["jpg", "png", "pdf"];
  let size = 0;
  let type: DetectedFileType | null = null;
  let head = new Uint8Array(0);

  const decide = () => {
    type = detectFileType(head);
    if (!type || !allowed.includes(type)) throw new FileRejectedError("type");
  };

  async function* stream() {
    const chunks = source instanceof Uint8Array ? [source] : source;
    for await (const chunk of chunks) {
      size += chunk.byteLength;
      if (size > options.maxBytes) throw new FileRejectedError("too_large");
      if (head.length < FILE_TYPE_SNIFF_BYTES) {
        const merged = new Uint8Array(head.length + chunk.byteLength);
        merged.set(head);
        merged.set(chunk, head.length);
        head = merged.slice(0, FILE_TYPE_SNIFF_BYTES);
        if (head.length >= FILE_TYPE_SNIFF_BYTES) decide();
      }
      yield chunk;
    }
    if (size === 0) throw new FileRejectedError("empty");
    if (!type) decide();
  }

  return {
    stream: stream(),
    result(): SniffedFile {
      if (!type) throw new Error("sniffFile: the stream was not fully consumed");
      return { type, size };
    },
  };
}
