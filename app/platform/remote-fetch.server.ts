// Downloads from addresses an outside feed gave us (lot pictures): http and https only, never
// to this machine or its private network unless allowed, under a time limit and a byte cap, with
// every redirect checked again. The address is checked where it is resolved, at connect time, so
// a name that resolves differently a second time cannot slip through (docs/decisions/2105).
import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import net from "node:net";
import ipaddr from "ipaddr.js";
import { env } from "~/platform/env.server";

/** A download that did not give us a body; `permanent` when trying again cannot help. */
export class RemoteFetchError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
  ) {
    super(message);
    this.name = "RemoteFetchError";
  }
}

export type RemoteFetchOptions = {
  timeoutMs: number;
  maxBytes: number;
  /** Loopback, private, link-local and other non-public addresses (tests' local servers). */
  allowPrivate: boolean;
  maxRedirects?: number;
  accept?: string;
};

export type RemoteBody = { url: string; contentType: string; bytes: Uint8Array };

// Which addresses are public is ipaddr.js's table of special-purpose ranges (IANA's registries),
// not a list kept here (docs/decisions/3012): an address is public when that table calls it
// plain unicast. An IPv6 address that carries an IPv4 one in its last 32 bits, mapped
// (::ffff:a.b.c.d) or the old "compatible" form (::a.b.c.d, which a URL writes as [::7f00:1]), is
// judged by that IPv4 address. The other IPv6 forms that reach IPv4 (NAT64, 6to4, Teredo) are
// refused: no picture host needs them.
const IPV4_COMPATIBLE = ipaddr.parseCIDR("::/96");

/** True for an address on the public internet. */
export function isPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, "");
  // net.isIP is strict (no octal or shortened IPv4 forms, which a URL has already normalised)
  if (!net.isIP(bare)) return false;
  const parsed = ipaddr.parse(bare);
  if (parsed.kind() === "ipv4") return parsed.range() === "unicast";
  const v6 = parsed as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress() || v6.match(IPV4_COMPATIBLE)) {
    const bytes = v6.toByteArray().slice(12);
    return isPublicAddress(bytes.join("."));
  }
  return v6.range() === "unicast";
}

/** Whether private addresses may be fetched: in tests, or when REMOTE_FETCH_ALLOW_PRIVATE=true. */
export function privateAddressesAllowed() {
  const e = env();
  return e.NODE_ENV === "test" || e.REMOTE_FETCH_ALLOW_PRIVATE;
}

/** The URL if it is absolute http(s) without credentials, else a permanent RemoteFetchError. */
export function checkRemoteUrl(raw: string, allowPrivate: boolean): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new RemoteFetchError("not a valid URL", true);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new RemoteFetchError(`only http and https are fetched, not ${url.protocol}`, true);
  if (url.username || url.password)
    throw new RemoteFetchError("a URL with a user name or password is not fetched", true);
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (!allowPrivate) {
    if (net.isIP(host)) {
      if (!isPublicAddress(host))
        throw new RemoteFetchError(`${host} is not a public address`, true);
    } else if (host === "localhost" || host.endsWith(".localhost") || !host.includes(".")) {
      throw new RemoteFetchError(`${host} is not a public host name`, true);
    }
  }
  return url;
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | dns.LookupAddress[],
  family?: number,
) => void;

/** dns.lookup that refuses names resolving to a non-public address. */
function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback) => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, "");
      const list = addresses as dns.LookupAddress[];
      const blocked = allowPrivate ? undefined : list.find((a) => !isPublicAddress(a.address));
      if (blocked || list.length === 0) {
        const refusal = new RemoteFetchError(
          blocked
            ? `${hostname} resolves to ${blocked.address}, not a public address`
            : `${hostname} has no address`,
          true,
        ) as RemoteFetchError & NodeJS.ErrnoException;
        return callback(refusal, "");
      }
      if (options.all) return callback(null, list);
      callback(null, list[0].address, list[0].family);
    });
  };
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** One request, no redirects followed: the status, headers and (for a 200) the body. */
function requestOnce(
  url: URL,
  options: RemoteFetchOptions,
  signal: AbortSignal,
): Promise<{ status: number; location?: string; contentType: string; bytes?: Uint8Array }> {
  return new Promise((resolve, reject) => {
    const client = url.protocol === "https:" ? https : http;
    const request = client.request(
      url,
      {
        method: "GET",
        signal,
        lookup: guardedLookup(options.allowPrivate) as unknown as typeof dns.lookup,
        headers: {
          "User-Agent": "BidYard-picture-fetcher/1",
          Accept: options.accept ?? "*/*",
          // identity only: a compressed body could be far larger than the cap once unpacked
          "Accept-Encoding": "identity",
        },
      },
      (response) => {
        const status = response.statusCode ?? 0;
        const contentType = String(response.headers["content-type"] ?? "");
        if (status !== 200) {
          response.resume();
          resolve({ status, location: response.headers.location, contentType });
          return;
        }
        const declared = Number(response.headers["content-length"]);
        if (Number.isFinite(declared) && declared > options.maxBytes) {
          response.destroy();
          reject(new RemoteFetchError(`larger than ${options.maxBytes} bytes`, true));
          return;
        }
        const chunks: Buffer[] = [];
        let total = 0;
        response.on("data", (chunk: Buffer) => {
          total += chunk.byteLength;
          if (total > options.maxBytes) {
            response.destroy();
            reject(new RemoteFetchError(`larger than ${options.maxBytes} bytes`, true));
            return;
          }
          chunks.push(chunk);
        });
        response.on("end", () =>
          resolve({ status, contentType, bytes: new Uint8Array(Buffer.concat(chunks)) }),
        );
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    request.end();
  });
}

/**
 * GETs `raw` and returns its body (a 200 only). Refusals by rule (scheme, address, size) and
 * answers that say the thing is not there (404, 410) are permanent; a timeout, a network error or
 * another HTTP status may pass and are not.
 */
export async function fetchRemote(raw: string, options: RemoteFetchOptions): Promise<RemoteBody> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs);
  let url = checkRemoteUrl(raw, options.allowPrivate);
  try {
    for (let hop = 0; ; hop++) {
      const answer = await requestOnce(url, options, controller.signal);
      if (answer.status === 200)
        return { url: url.toString(), contentType: answer.contentType, bytes: answer.bytes! };
      if (REDIRECTS.has(answer.status) && answer.location) {
        if (hop >= (options.maxRedirects ?? 3))
          throw new RemoteFetchError("too many redirects", true);
        url = checkRemoteUrl(new URL(answer.location, url).toString(), options.allowPrivate);
        continue;
      }
      throw new RemoteFetchError(
        `HTTP ${answer.status}`,
        answer.status === 404 || answer.status === 410,
      );
    }
  } catch (error) {
    if (error instanceof RemoteFetchError) throw error;
    if (controller.signal.aborted)
      throw new RemoteFetchError(`no answer within ${options.timeoutMs / 1000} s`, false);
    const cause = error as NodeJS.ErrnoException;
    // the guarded lookup's refusal can arrive wrapped by the socket
    if (cause?.name === "RemoteFetchError")
      throw new RemoteFetchError(cause.message, (cause as RemoteFetchError).permanent);
    throw new RemoteFetchError(cause?.code ?? cause?.message ?? String(error), false);
  } finally {
    clearTimeout(timer);
  }
}
