// fly.toml's machine, read from the file: its memory and the workers its [env] starts. The soak
// and the bench run the server sized as on it (heap caps from MACHINE_MEMORY_MB,
// docs/decisions/3005), whatever this machine's own memory.
import { readFileSync } from "node:fs";

export function flyMachine(file = "fly.toml") {
  const toml = readFileSync(file, "utf8");
  const [, amount, unit] = /^\s*memory\s*=\s*"(\d+)(mb|gb)"/im.exec(toml) ?? [];
  const memoryMb = Number(amount) * (unit?.toLowerCase() === "gb" ? 1024 : 1);
  const workers = /WEB_CONCURRENCY\s*=\s*"(\d+)"/.exec(toml)?.[1] ?? "1";
  return { memoryMb, workers };
}
