// The server's timeouts (docs/decisions/3004).

function numberSetting(name: string, fallback: number) {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

/**
 * Headers must arrive within HTTP_HEADERS_TIMEOUT_MS; a form or JSON body (at most 1 MiB, read
 * here) within HTTP_BODY_TIMEOUT_MS of the headers; an upload must keep arriving (at least
 * UPLOAD_MIN_BYTES in every HTTP_BODY_TIMEOUT_MS while the route is reading) and be whole within
 * HTTP_REQUEST_TIMEOUT_MS; a socket silent both ways for HTTP_IDLE_TIMEOUT_MS is closed.
 */
export function httpTimeouts() {
  return {
    headersMs: numberSetting("HTTP_HEADERS_TIMEOUT_MS", 20_000),
    bodyMs: numberSetting("HTTP_BODY_TIMEOUT_MS", 30_000),
    idleMs: numberSetting("HTTP_IDLE_TIMEOUT_MS", 60_000),
    requestMs: numberSetting("HTTP_REQUEST_TIMEOUT_MS", 600_000),
  };
}

export const UPLOAD_MIN_BYTES = 16 * 1024;
