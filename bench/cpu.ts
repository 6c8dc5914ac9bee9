// CPU time of a process tree from /proc: the server's processes (its workers too) and the
// PostgreSQL cluster's (the postmaster and every backend). Far steadier than requests per second on
// a shared machine: another program's load slows a request down but does not make it use more CPU.
import { readFileSync } from "node:fs";
import { processTree } from "../tests/support/process-memory";

/** Linux's USER_HZ: /proc counts CPU time in 1/100 s. */
const TICKS_PER_SECOND = 100;

/**
 * A process's own CPU ticks plus those of its children that have ended and been waited for
 * (utime, stime, cutime, cstime): a PostgreSQL backend that exits during a measurement still
 * counts, through its postmaster.
 */
function ticks(pid: number) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
  } catch {
    return 0; // gone between listing and reading: its time is in its parent's cutime now
  }
}

/** CPU milliseconds used so far by the process and its descendants (those alive, and ended ones
 * their parents have reaped). */
export function treeCpuMs(pid: number) {
  return (processTree(pid).reduce((sum, p) => sum + ticks(p), 0) * 1000) / TICKS_PER_SECOND;
}

/** CPU milliseconds used by each tree while `work` runs. */
export async function cpuDuring<T>(
  roots: Record<string, number | null | undefined>,
  work: () => Promise<T>,
) {
  const before = Object.fromEntries(
    Object.entries(roots).map(([name, pid]) => [name, pid ? treeCpuMs(pid) : 0]),
  );
  const result = await work();
  const used: Record<string, number> = {};
  for (const [name, pid] of Object.entries(roots))
    used[name] = pid ? treeCpuMs(pid) - before[name] : 0;
  return { result, used };
}
