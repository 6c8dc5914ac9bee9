// A property-based test (docs/decisions/3206): fast-check throws generated bodies at every action
// under app/routes (the /api calls, /paypal, the pages' form posts, file PUTs): nested and huge,
// odd types and content types, invalid UTF-8, duplicate keys, numbers as strings, null, arrays
// where objects belong, forms with too many fields. Each route module's action is called as it is
// (its guard, docs/decisions/3611: bounded forms, outages, maintenance) in-process with a real session against the real database. The property: never a 5xx
// (nor a thrown error, which Remix answers 500), and on a 4xx nothing in the database changed.
//
// A fixed seed, so `npm test` runs the same cases every time; PROPERTY_RUNS sets how many (the
// README has the longer run) and PROPERTY_SEED another seed.
import { readdirSync, existsSync, readFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { QueryTypes } from "sequelize";
import { beforeAll, describe, expect, it } from "vitest";
import { sequelize } from "~/models/db.server";
import { createTestUser, sessionCookieFor } from "../support/auth";
import { createTestLot } from "../support/lots";
import { call, type Handler } from "../support/routes";

const RUNS = Number(process.env.PROPERTY_RUNS ?? 400);
const SEED = Number(process.env.PROPERTY_SEED ?? 34_2026);
const ORIGIN = "http://localhost:3000";
const NO_SUCH_UUID = "00000000-0000-4000-8000-000000000000";

type Action = { file: string; urlPath: string; params: string[]; action: Handler };

/** Every route module under app/routes that has an action, with its URL pattern. */
async function actions(): Promise<Action[]> {
  const dir = path.resolve("app/routes");
  const found: Action[] = [];
  for (const entry of readdirSync(dir).sort()) {
    const file = existsSync(path.join(dir, entry, "route.tsx"))
      ? path.join(entry, "route.tsx")
      : existsSync(path.join(dir, entry, "route.ts"))
        ? path.join(entry, "route.ts")
        : entry;
    if (!/\.tsx?$/.test(file)) continue;
    if (
      !/export (async )?(function|const) action\b/.test(readFileSync(path.join(dir, file), "utf8"))
    )
      continue;
    // the action as Remix calls it: each route guards its own (docs/decisions/3611)
    const module = (await import(/* @vite-ignore */ path.join(dir, file))) as { action: Handler };
    const segments = entry
      .replace(/\.tsx?$/, "")
      .split(".")
      .filter((s) => s !== "_index")
      .map((s) =>
        s
          .replace(/_$/, "")
          .replace(/^_/, "")
          .replace(/\[(.*)\]/, "$1"),
      );
    const params = segments.filter((s) => s.startsWith("$")).map((s) => s.slice(1) || "*");
    found.push({ file, urlPath: segments.join("/"), params, action: module.action });
  }
  return found;
}

/** Field names the app's forms and calls use, and some no form has. */
const NAMES = [
  ...["amount", "vehicleId", "orderID", "id", "intent", "planId", "campaignId", "purchaseId"],
  ...["title", "body", "description", "email", "timeZone", "price", "currency", "make"],
  ...["model", "year", "mileage", "reason", "role", "verified", "decision", "documentType"],
  ...["documentUrl", "documentURL", "serviceType", "maxAmount", "isProxyBid", "lotId", "q"],
  ...["maintenanceMode", "betaBanner", "size", "contentType", "purpose", "fee", "percent"],
  ...["redirectTo", "returnTo", "__proto__", "constructor", "", "a\u0000b", "x".repeat(300)],
];

/** Values of every odd kind: numbers as strings, null, arrays, objects, huge and strange text. */
const value: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom("", "0", "-1", "1e308", "NaN", "Infinity", "-0", "400.005", "0x10", " 12 "),
  fc.constantFrom(null, true, false, 0, -1, 1e308, 2 ** 63, Number.MIN_VALUE),
  fc.constantFrom(NO_SUCH_UUID, "1", "not-a-uuid", "<script>", "'; DROP TABLE users; --"),
  fc.string({ maxLength: 40, unit: "binary" }),
  fc.integer({ min: 1, max: 200_000 }).map((n) => "x".repeat(n)),
  fc.jsonValue({ maxDepth: 3 }),
  fc.array(fc.constantFrom(null, "1", 1, {}), { maxLength: 5 }),
);

const fields = fc.array(fc.tuple(fc.constantFrom(...NAMES), value), { maxLength: 12 });

type Body = {
  label: string;
  contentType: string | null;
  body: string | Uint8Array<ArrayBuffer> | null;
};

const nested = fc
  .tuple(
    fc.oneof(
      fc.integer({ min: 1, max: 64 }),
      // fast-check leans to a range's ends: the depths that broke the cleaner, named
      fc.constantFrom(4_000, 8_000, 12_000),
      fc.integer({ min: 1_000, max: 12_000 }),
    ),
    fc.constantFrom('{"a":', "[", '{"a":['),
    fc.boolean(),
  )
  .map(([levels, open, balanced]) => {
    const close = open === "[" ? "]" : open === '{"a":' ? "}" : "]}";
    const inner = open === "[" ? "" : "1";
    return open.repeat(levels) + inner + (balanced ? close.repeat(levels) : "");
  });

const jsonText: fc.Arbitrary<string> = fc.oneof(
  fields.map((f) => JSON.stringify(Object.fromEntries(f))),
  // duplicate keys, as raw text (JSON.stringify cannot write them)
  fields.map(
    (f) => `{${f.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v ?? null)}`).join(",")}}`,
  ),
  // an array where an object belongs
  fields.map((f) => JSON.stringify([Object.fromEntries(f)])),
  fc.jsonValue().map((v) => JSON.stringify(v) ?? "null"),
  nested,
  fc.constantFrom("null", '"x"', "42", "[]", "{", '{"amount":', "\ufeff{}", "{}garbage", "[1,]"),
  fc.string({ maxLength: 200 }),
);

const formText = fc.oneof(
  fields.map((f) => new URLSearchParams(f.map(([k, v]) => [k, String(v)])).toString()),
  fc
    .integer({ min: 900, max: 1_500 })
    .map((n) => Array.from({ length: n }, (_, i) => `f${i}=1`).join("&")),
  fc.constantFrom("%zz=%", "a=%E0%A4%A", "&&&=&", "=x", "a=1;b=2"),
);

/** Bytes that are not UTF-8: lone continuation bytes, overlong forms, surrogates. */
const invalidUtf8 = fc
  .tuple(
    fc.string({ maxLength: 20 }),
    fc.constantFrom([0xff, 0xfe], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0x80]),
  )
  .map(([text, bad]) => {
    const before = new TextEncoder().encode(`{"amount":"${text}`);
    return Uint8Array.from([...before, ...bad, 0x22, 0x7d]);
  });

const multipart = fc.tuple(fields, fc.boolean()).map(([f, closed]) => {
  const parts = f.map(
    ([k, v]) => `--B\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${String(v)}\r\n`,
  );
  return parts.join("") + (closed ? "--B--\r\n" : "");
});

const body: fc.Arbitrary<Body> = fc.oneof(
  // deep nesting on its own too, weighted: the body that found 3205
  {
    arbitrary: nested.map((b) => ({
      label: "json, nested",
      contentType: "application/json",
      body: b,
    })),
    weight: 2,
  },
  jsonText.map((b) => ({ label: "json", contentType: "application/json", body: b })),
  jsonText.map((b) => ({
    label: "json, odd type",
    contentType: "application/json; charset=latin1",
    body: b,
  })),
  invalidUtf8.map((b) => ({ label: "invalid utf-8", contentType: "application/json", body: b })),
  formText.map((b) => ({
    label: "form",
    contentType: "application/x-www-form-urlencoded",
    body: b,
  })),
  invalidUtf8.map((b) => ({
    label: "form, invalid utf-8",
    contentType: "application/x-www-form-urlencoded",
    body: b,
  })),
  multipart.map((b) => ({
    label: "multipart",
    contentType: "multipart/form-data; boundary=B",
    body: b,
  })),
  multipart.map((b) => ({
    label: "multipart, no boundary",
    contentType: "multipart/form-data",
    body: b,
  })),
  fc
    .oneof(jsonText, formText)
    .map((b) => ({ label: "text/plain", contentType: "text/plain", body: b })),
  fc
    .oneof(jsonText, formText)
    .map((b) => ({ label: "no content type", contentType: null, body: b })),
  fc.constant({ label: "empty", contentType: "application/json", body: null }),
);

let cookies: Record<"buyer" | "admin", string>;
let lotId: string;

/** One number per table (row count and a hash of its rows), read in one query. */
let checksumSql = "";
async function checksum() {
  const [row] = await sequelize.query<Record<string, string>>(checksumSql, {
    type: QueryTypes.SELECT,
  });
  return row;
}

beforeAll(async () => {
  const buyer = await createTestUser({ verified: true, deposit: "5000.00" });
  const admin = await createTestUser({ role: "admin", verified: true });
  cookies = { buyer: await sessionCookieFor(buyer), admin: await sessionCookieFor(admin) };
  lotId = String((await createTestLot()).id);
  const tables = await sequelize.query<{ name: string }>(
    "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name NOT IN ('rate_limits', 'sessions', 'schema_migrations') ORDER BY 1",
    { type: QueryTypes.SELECT },
  );
  checksumSql = `SELECT ${tables
    .map(
      ({ name: t }) =>
        `(SELECT count(*)::text || ':' || coalesce(sum(hashtext(r::text)::bigint), 0)::text FROM "${t}" r) AS "${t}"`,
    )
    .join(", ")}`;
});

describe("no body breaks an answer", () => {
  it(`never a 5xx, nothing written on a 4xx (${RUNS} cases, seed ${SEED})`, async () => {
    const routes = await actions();
    expect(routes.length).toBeGreaterThan(50);
    let cases = 0;
    const statuses: Record<string, number> = {};
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...routes.map((r) => r.file)),
        // mostly signed-in POSTs, which reach the body; the rest check the refusals before it
        fc.oneof(
          { arbitrary: fc.constant("buyer" as const), weight: 3 },
          { arbitrary: fc.constant("admin" as const), weight: 2 },
          { arbitrary: fc.constant("nobody" as const), weight: 1 },
        ),
        fc.oneof(
          { arbitrary: fc.constant("POST"), weight: 6 },
          { arbitrary: fc.constantFrom("PUT", "PATCH", "DELETE"), weight: 1 },
        ),
        fc.constantFrom(NO_SUCH_UUID, "1", "abc", "lot"),
        fc.boolean(),
        body,
        async (file, who, method, param, acceptJson, sent) => {
          cases += 1;
          const route = routes.find((r) => r.file === file)!;
          const params = Object.fromEntries(
            route.params.map((p) => [p, param === "lot" ? lotId : param]),
          );
          const url = `${ORIGIN}/${route.urlPath.replace(/\$(\w*)/g, (_, p: string) => params[p || "*"] ?? "")}`;
          const headers = new Headers({ Origin: ORIGIN });
          if (who !== "nobody") headers.set("Cookie", cookies[who]);
          if (sent.contentType) headers.set("Content-Type", sent.contentType);
          if (acceptJson) headers.set("Accept", "application/json");
          const request = new Request(url, { method, headers, body: sent.body });
          const before = await checksum();
          let response: Response;
          try {
            response = await call(route.action, request, params);
          } catch (error) {
            throw new Error(`${method} ${url} (${sent.label}) threw: ${String(error)}`);
          }
          const status = response.status;
          statuses[`${Math.floor(status / 100)}xx`] =
            (statuses[`${Math.floor(status / 100)}xx`] ?? 0) + 1;
          const text = await response.text().catch(() => "");
          expect(status, `${method} ${url} (${sent.label}): ${text.slice(0, 200)}`).toBeLessThan(
            500,
          );
          if (status >= 400) {
            expect(
              await checksum(),
              `${method} ${url} (${sent.label}) wrote on a ${status}`,
            ).toEqual(before);
          }
        },
      ),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
    console.log(
      `input property: ${cases} cases run over ${routes.length} actions, seed ${SEED}:`,
      statuses,
    );
    expect(cases).toBeGreaterThanOrEqual(RUNS);
  }, 600_000);
});
