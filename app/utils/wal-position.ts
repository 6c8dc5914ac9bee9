// PostgreSQL's write-ahead log positions ("16/B374D848": two hexadecimal halves of a 64-bit
// offset), as the read-your-writes cookie carries them (docs/decisions/3701).

const WAL_POSITION = /^([0-9A-F]{1,8})\/([0-9A-F]{1,8})$/i;

/** The position as a number, or null when `text` is not one. */
export function parseWalPosition(text: string | null | undefined): bigint | null {
  const match = WAL_POSITION.exec(text ?? "");
  if (!match) return null;
  return (BigInt(`0x${match[1]}`) << 32n) + BigInt(`0x${match[2]}`);
}
