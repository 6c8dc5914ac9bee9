import { Writable } from "node:stream";
import type { EntryContext, HandleDataRequestFunction } from "@remix-run/node";
import { RemixServer, isRouteErrorResponse } from "@remix-run/react";
import { renderToPipeableStream } from "react-dom/server";
import { env } from "~/platform/env.server";
import { log } from "~/platform/log.server";
import { registerStateMetrics } from "~/platform/metrics.server";
import { openStreams } from "~/platform/live/stream.server";
import { noteProblem } from "~/platform/request-notes.server";
import { NonceProvider } from "~/utils/nonce";
import {
  applySecurityHeaders,
  pageContentSecurityPolicy,
  scriptNonce,
} from "~/http/security-headers.server";

// The server answers /healthz with this before Remix (docs/decisions/3405).
export { HEALTH_HEADERS, healthAnswer } from "~/platform/availability.server";
// Outside the primary region the production server asks these before Remix (server/regions.ts).
export {
  onReplica,
  regionSettings,
  servesHere,
  walCookie,
  WAL_COOKIE,
} from "~/platform/regions.server";
// The worker process (server/jobs.ts) runs the background jobs with this; a web process starts
// no background work of its own (docs/decisions/3561).
export { startJobWorker } from "~/platform/jobs/runner.server";
export { registerQueueMetrics } from "~/platform/metrics.server";
export { workContext } from "~/platform/jobs/context.server";

// Fail fast on a bad environment: production refuses to start without its secrets.
env();
registerStateMetrics(() => openStreams());

export const streamTimeout = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
) {
  const nonce = scriptNonce();
  responseHeaders.set("Content-Security-Policy", pageContentSecurityPolicy(remixContext, nonce));
  applySecurityHeaders(responseHeaders);

  return new Promise<Response>((resolve, reject) => {
    // A render still going after this long is cut off; one that finished clears it, so a
    // finished page's render is not kept alive for seconds by its timer (docs/decisions/3408).
    // eslint-disable-next-line prefer-const -- the callbacks below read it; a const set after them would be in its dead zone
    let timer: NodeJS.Timeout | undefined;
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <RemixServer
          context={remixContext}
          url={request.url}
          nonce={nonce}
          abortDelay={streamTimeout}
        />
      </NonceProvider>,
      {
        nonce,
        // The page goes out whole, in one write with its length (docs/decisions/3570): its
        // loaders have all answered before the render starts, no page defers data, and the
        // render takes milliseconds, so a streamed shell would come no sooner to a person and
        // cost a web stream's turn and a socket write for each of React's 2 KB pieces.
        onShellReady() {
          shellRendered = true;
        },
        onAllReady() {
          const chunks: Buffer[] = [];
          const body = new Writable({
            write(chunk: Buffer, _encoding, done) {
              chunks.push(chunk);
              done();
            },
            final(done) {
              clearTimeout(timer);
              const html = Buffer.concat(chunks);
              responseHeaders.set("Content-Type", "text/html; charset=utf-8");
              responseHeaders.set("Content-Length", String(html.byteLength));
              resolve(new Response(html, { headers: responseHeaders, status: responseStatusCode }));
              done();
            },
          });
          pipe(body);
        },
        onShellError(error: unknown) {
          clearTimeout(timer);
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // an error in the shell is Remix's to report (handleError); one after it is ours
          if (shellRendered) log().error({ err: error }, "render failed after the shell");
        },
      },
    );
    timer = setTimeout(abort, streamTimeout + 1_000);
  });
}

export const handleDataRequest: HandleDataRequestFunction = (response) => {
  applySecurityHeaders(response.headers);
  return response;
};

/**
 * What a client caused is no server error: a request the client gave up on (its log line says
 * aborted), a 4xx Remix itself raised (a GET to a route with no loader, a method it has no action
 * for) and the warning Remix raises for a stray `?_data` request each leave a note on the
 * request's one log line, with no stack (docs/decisions/3002). Anything else is logged with its
 * stack, in one JSON line.
 */
export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return;
  if (isRouteErrorResponse(error) && error.status < 500) {
    noteProblem(request, `${error.status} ${error.statusText}`);
    return;
  }
  if (error instanceof Error && error.message.startsWith("Warning: Single fetch-enabled apps")) {
    noteProblem(request, "a ?_data request (not used by this app)");
    return;
  }
  log().error({ err: error, path: new URL(request.url).pathname }, "request failed");
}
