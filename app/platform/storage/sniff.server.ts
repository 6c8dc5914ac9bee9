// Checks a file while it streams: reads just its first bytes to learn its type (refusing an empty
// file or another type before anything is stored), then passes the bytes on under a hard cap.
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

export type SniffedFile = {
  type: DetectedFileType;
  /** The same bytes from the start; throws FileRejectedError('too_large') past the cap. */
  stream: AsyncGenerator<Uint8Array>;
  /** Bytes seen so far (the whole size once `stream` is consumed). */
  size: () => number;
};

/**
 * Peeks at `source` and throws FileRejectedError ('empty', 'type', 'too_large') when the file is
 * unacceptable. It never closes `source` early, so a caller can still drain it.
 */
export async function sniffFile(
  source: ByteSource,
  options: { maxBytes: number; allowed?: DetectedFileType[] },
): Promise<SniffedFile> {
  const allowed = options.allowed ?? ["jpg", "png", "pdf"];
  const iterator =
    source instanceof Uint8Array
      ? [source][Symbol.iterator]()
      : (source as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
  const next = async () => (await iterator.next()) as IteratorResult<Uint8Array>;

  const head: Uint8Array[] = [];
  let total = 0;
  while (total < FILE_TYPE_SNIFF_BYTES) {
    const { value, done } = await next();
    if (done) break;
    head.push(value);
    total += value.byteLength;
  }
  if (total === 0) throw new FileRejectedError("empty");
  if (total > options.maxBytes) throw new FileRejectedError("too_large");
  const joined = new Uint8Array(total);
  let offset = 0;
  for (const chunk of head) {
    joined.set(chunk, offset);
    offset += chunk.byteLength;
  }
  const type = detectFileType(joined);
  if (!type || !allowed.includes(type)) throw new FileRejectedError("type");

  async function* stream() {
    yield joined;
    for (;;) {
      const { value, done } = await next();
      if (done) return;
      total += value.byteLength;
      if (total > options.maxBytes) throw new FileRejectedError("too_large");
      yield value;
    }
  }
  return { type, stream: stream(), size: () => total };
}
