import { PassThrough } from "node:stream";
import type { EntryContext, HandleDataRequestFunction } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { startAuctionCloser } from "~/services/auctions/closer.server";
import { startHousekeeping } from "~/platform/housekeeping.server";
import { env } from "~/platform/env.server";
import { NonceProvider } from "~/utils/nonce";
import {
  applySecurityHeaders,
  pageContentSecurityPolicy,
  scriptNonce,
} from "~/http/security-headers.server";

// server.mjs guards the build's routes with this (database outages, maintenance).
export { guardRoutes } from "~/http/route-guards.server";

// Fail fast on a bad environment: production refuses to start without its secrets.
env();
startAuctionCloser();
startHousekeeping();

export const streamTimeout = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
) {
  const nonce = scriptNonce();
  const waitForAll = isbot(request.headers.get("user-agent") ?? "") || remixContext.isSpaMode;
  responseHeaders.set("Content-Security-Policy", pageContentSecurityPolicy(remixContext, nonce));
  applySecurityHeaders(responseHeaders);

  return new Promise<Response>((resolve, reject) => {
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
        [waitForAll ? "onAllReady" : "onShellReady"]() {
          shellRendered = true;
          const body = new PassThrough();
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          resolve(
            new Response(createReadableStreamFromReadable(body), {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          );
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) console.error(error);
        },
      },
    );
    setTimeout(abort, streamTimeout + 1_000);
  });
}

export const handleDataRequest: HandleDataRequestFunction = (response) => {
  applySecurityHeaders(response.headers);
  return response;
};

export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return;
  console.error(error);
}
