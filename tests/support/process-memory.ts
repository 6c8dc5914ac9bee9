// Memory of a process and its children from /proc (the server's workers when WEB_CONCURRENCY > 1),
// for the benchmark and the soak.
import { readFileSync } from "node:fs";

/** The process and its children, recursively. */
export function processTree(pid: number): number[] {
  let children: number[] = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8")
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    // gone
  }
  return [pid, ...children.flatMap(processTree)];
}

/** A /proc/PID/status memory field (VmRSS, VmHWM) in kB; 0 once the process is gone. */
export function statusKb(pid: number, field: "VmRSS" | "VmHWM") {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, "m").exec(
      readFileSync(`/proc/${pid}/status`, "utf8"),
    );
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

/** The field summed over the process and its children, in kB. */
export function treeKb(pid: number, field: "VmRSS" | "VmHWM") {
  return processTree(pid).reduce((sum, p) => sum + statusKb(p, field), 0);
}
