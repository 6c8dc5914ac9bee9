// Machines in several regions, one database primary (docs/decisions/3701). Outside the primary
// region a request is answered here before its body is read: a read of a page that opted in
// (its route's `handle.reads` is "replica") is served from the local replica once it holds the
// reader's own last write; everything else gets `fly-replay: region=<primary>`, and Fly's proxy
// runs the same request there. A body too large for Fly to replay (over 1 MB: uploads) is sent
// on to the primary region over the private network instead. In the primary region, a write's
// answer carries the log position a read elsewhere must wait for.
import http from "node:http";
import type { NextFunction, Request, Response } from "express";
import type { ServerBuild } from "@remix-run/node";
import { SESSION_COOKIE } from "../app/http/cookie-names.ts";
import { SAFE_METHODS } from "../app/http/same-origin.ts";

export type RegionEntry = {
  regionSettings(): {
    region: string | null;
    primaryRegion: string | null;
    replicaRegion: boolean;
  };
  servesHere(cookieHeader: string | undefined): Promise<boolean>;
  onReplica<T>(work: () => Promise<T>): Promise<{ value: T; replay: boolean }>;
  walCookie(): Promise<string>;
};

/** Fly replays request bodies up to 1 MB; larger ones are forwarded (see `forward`). */
export const REPLAYABLE_BODY_BYTES = 1_000_000;

/** True when Fly could not replay this request's body (over 1 MB, or of unknown length). */
export function tooLargeToReplay(headers: http.IncomingHttpHeaders) {
  if (headers["content-length"] !== undefined)
    return Number(headers["content-length"]) > REPLAYABLE_BODY_BYTES;
  return headers["transfer-encoding"] !== undefined;
}

/**
 * Where a body too large to replay goes: PRIMARY_URL, or on Fly the primary region's machines on
 * the private network (`<region>.<app>.internal`).
 */
export function primaryUrl() {
  if (process.env.PRIMARY_URL) return process.env.PRIMARY_URL;
  const { FLY_APP_NAME, PRIMARY_REGION, PORT } = process.env;
  if (FLY_APP_NAME && PRIMARY_REGION)
    return `http://${PRIMARY_REGION}.${FLY_APP_NAME}.internal:${PORT ?? 8080}`;
  return null;
}

export function regionRouting(
  build: Pick<ServerBuild, "routes">,
  entry: RegionEntry,
  routeOf: (pathname: string) => string,
) {
  // (a build from before regions, as the bench's older builds are: one region)
  const settings = entry.regionSettings?.() ?? {
    region: null,
    primaryRegion: null,
    replicaRegion: false,
  };
  const primary = settings.primaryRegion;
  const forwardTo = primaryUrl();
  // in the primary region of several: a write's answer carries the log position
  const marksWrites = Boolean(primary) && !settings.replicaRegion;

  /** The answer Fly's proxy replays in the primary region (its status and body are ignored). */
  function replay(res: Response) {
    res
      .status(409)
      .set({ "fly-replay": `region=${primary}`, "Cache-Control": "no-store" })
      .type("text")
      .send(`This request is answered in ${primary}.`);
  }

  const signedIn = new RegExp(`(?:^|;\\s*)${SESSION_COOKIE}=`);
  /** The route's `handle.reads` (app/http/replica-reads.ts) lets this reader read the replica. */
  const readsReplica = (pathname: string, cookie: string | undefined) => {
    const module = build.routes[routeOf(pathname)]?.module as
      { handle?: { reads?: string } } | undefined;
    const reads = module?.handle?.reads;
    return reads === "replica" || (reads === "replica-signed-out" && !signedIn.test(cookie ?? ""));
  };

  /** Outside the primary region: replay, forward, or let the read through to the replica. */
  async function route(req: Request, res: Response, next: NextFunction) {
    if (!SAFE_METHODS.has(req.method)) {
      if (forwardTo && tooLargeToReplay(req.headers)) return forward(req, res, forwardTo);
      return replay(res);
    }
    if (!readsReplica(req.path, req.headers.cookie)) return replay(res);
    if (!(await entry.servesHere(req.headers.cookie))) return replay(res);
    res.locals.readsReplica = true;
    next();
  }

  return {
    /** Before any body is read; a no-op in the primary region. */
    middleware(req: Request, res: Response, next: NextFunction) {
      if (!settings.replicaRegion) return next();
      route(req, res, next).catch(next);
    },
    /**
     * Runs Remix for a request: on the replica when the middleware let it through (a replica that
     * failed it turns the answer into a replay, never a 500); in the primary region a write, or a
     * request replayed from another region, leaves with the log position to wait for.
     */
    async answer(
      req: Request,
      res: Response,
      run: () => Promise<globalThis.Response>,
    ): Promise<globalThis.Response | null> {
      if (res.locals.readsReplica) {
        const { value, replay: failed } = await entry.onReplica(run);
        if (!failed) return value;
        await value.body?.cancel().catch(() => undefined);
        replay(res);
        return null;
      }
      // one region, or a far one: nothing to add
      if (!marksWrites) return run();
      const response = await run();
      // a write, or a request replayed here from another region that may write (a page that
      // did not opt in: a payment's return, the sign-in callback); a replayed opted-in read
      // wrote nothing, and a cookie would only make the reader's next page wait
      const replayed = req.get("fly-replay-src") !== undefined;
      const wrote =
        !SAFE_METHODS.has(req.method) || (replayed && !readsReplica(req.path, req.headers.cookie));
      if (wrote && response.status < 500) {
        const cookie = await entry.walCookie().catch(() => null);
        if (cookie) res.append("Set-Cookie", cookie);
      }
      return response;
    },
  };
}

/** Streams the request to the primary region and its answer back (uploads over 1 MB). */
function forward(req: Request, res: Response, base: string) {
  const target = new URL(req.originalUrl, base);
  const upstream = http.request(target, { method: req.method, headers: req.headers }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  upstream.on("error", () => {
    if (!res.headersSent) res.status(502).type("text").send("The primary region did not answer.");
    else res.destroy();
  });
  req.pipe(upstream);
}
