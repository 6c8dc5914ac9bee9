// Which request or job the running code works for, so a job queued during a request carries the
// request's id, and a job's own log lines carry the job's id (docs/decisions/3561). The server
// (server/request-log.ts) and the worker keep one store on globalThis under a shared symbol: the
// build is its own bundle and would otherwise see a second one.
import { AsyncLocalStorage } from "node:async_hooks";

export type WorkContext = { requestId?: string; jobId?: string; jobKind?: string };

const KEY = Symbol.for("bidyard.workContext");
const globals = globalThis as Record<symbol, unknown>;

export function workContext(): AsyncLocalStorage<WorkContext> {
  return (globals[KEY] ??= new AsyncLocalStorage<WorkContext>()) as AsyncLocalStorage<WorkContext>;
}

export function currentRequestId() {
  return workContext().getStore()?.requestId;
}
