import { describe, expect, it } from "vitest";
import { FileRejectedError, sniffFile } from "~/platform/storage/sniff.server";
import { detectFileType, fileTypeForContentType } from "~/utils/file-type";
import {
  EXE_BYTES,
  JPEG_BYTES,
  PDF_BYTES,
  PNG_BYTES,
  TRUNCATED_PDF_BYTES,
} from "../support/kyc-files";

async function* inChunks(bytes: Uint8Array, size: number) {
  for (let i = 0; i < bytes.length; i += size) yield bytes.slice(i, i + size);
}

async function consume(stream: AsyncIterable<Uint8Array>) {
  let total = 0;
  for await (const chunk of stream) total += chunk.length;
  return total;
}

describe("detectFileType", () => {
  it("knows JPG, PNG and PDF by their first bytes", () => {
    expect(detectFileType(JPEG_BYTES)).toBe("jpg");
    expect(detectFileType(PNG_BYTES)).toBe("png");
    expect(detectFileType(PDF_BYTES)).toBe("pdf");
  });

  it("refuses executables, truncated headers and empty input", () => {
    expect(detectFileType(EXE_BYTES)).toBeNull();
    expect(detectFileType(TRUNCATED_PDF_BYTES)).toBeNull();
    expect(detectFileType(new TextEncoder().encode("%PDF-x.y plus more"))).toBeNull();
    expect(detectFileType(PNG_BYTES.slice(0, 7))).toBeNull();
    expect(detectFileType(new Uint8Array())).toBeNull();
  });

  it("maps accepted MIME types", () => {
    expect(fileTypeForContentType("image/jpeg")).toBe("jpg");
    expect(fileTypeForContentType("application/pdf; charset=binary")).toBe("pdf");
    expect(fileTypeForContentType("application/x-msdownload")).toBeNull();
  });
});

describe("sniffFile", () => {
  it("detects the type from chunks of a byte each and passes every byte on", async () => {
    const sniffed = await sniffFile(inChunks(PNG_BYTES, 1), { maxBytes: 100 });
    expect(sniffed.type).toBe("png");
    expect(await consume(sniffed.stream)).toBe(PNG_BYTES.length);
    expect(sniffed.size()).toBe(PNG_BYTES.length);
  });

  it("refuses empty, wrong-type and oversized files", async () => {
    await expect(sniffFile(inChunks(new Uint8Array(), 4), { maxBytes: 100 })).rejects.toMatchObject(
      {
        problem: "empty",
      },
    );
    await expect(sniffFile(inChunks(EXE_BYTES, 4), { maxBytes: 100 })).rejects.toMatchObject({
      problem: "type",
    });
    await expect(sniffFile(PNG_BYTES, { maxBytes: 100, allowed: ["pdf"] })).rejects.toBeInstanceOf(
      FileRejectedError,
    );
    const big = new Uint8Array(1000);
    big.set(PNG_BYTES);
    const sniffed = await sniffFile(inChunks(big, 64), { maxBytes: 999 });
    await expect(consume(sniffed.stream)).rejects.toMatchObject({ problem: "too_large" });
  });
});
