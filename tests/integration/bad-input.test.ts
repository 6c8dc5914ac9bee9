// Every JSON call gets a battery of bad input: wrong shapes, wrong types, empty, huge, control
// characters, odd numbers, markup and SQL, malformed JSON, wrong content types, oversized bodies.
// Each answers a 4xx with a message, never a 5xx, and the database is exactly as it was.
import { QueryTypes } from "sequelize";
import { beforeAll, describe, expect, it } from "vitest";
import { sequelize } from "~/models/db.server";
import type { User } from "~/models/user.server";
import { createTestUser, requestAs } from "../support/auth";

type Handler = (args: {
  request: Request;
  params: Record<string, string>;
  context: object;
}) => unknown;
type Who = "buyer" | "admin";

type Endpoint = {
  file: string;
  path: string;
  method?: "POST" | "PUT";
  who: Who;
  params?: Record<string, string>;
  fields: string[];
};

const NO_SUCH_UUID = "00000000-0000-4000-8000-000000000000";

const ENDPOINTS: Endpoint[] = [
  {
    file: "api.prelaunch-signup",
    path: "/api/prelaunch-signup",
    who: "buyer",
    fields: ["email", "firstName", "lastName"],
  },
  {
    file: "api.bids",
    path: "/api/bids",
    who: "buyer",
    fields: ["vehicleId", "amount", "isProxyBid", "maxAmount"],
  },
  {
    file: "api.confirm-deposit",
    path: "/api/confirm-deposit",
    who: "buyer",
    fields: ["orderID", "amount"],
  },
  {
    file: "paypal.order",
    path: "/paypal/order",
    who: "buyer",
    fields: ["amount", "currency", "intent"],
  },
  {
    file: "api.objects.upload",
    path: "/api/objects/upload",
    who: "buyer",
    fields: ["size", "contentType", "purpose"],
  },
  {
    file: "api.kyc.document-url",
    path: "/api/kyc/document-url",
    method: "PUT",
    who: "buyer",
    fields: ["documentURL"],
  },
  {
    file: "api.kyc.documents",
    path: "/api/kyc/documents",
    who: "buyer",
    fields: ["documentType", "documentUrl"],
  },
  {
    file: "api.affiliates",
    path: "/api/affiliates",
    who: "buyer",
    fields: [
      "companyName",
      "serviceTypes",
      "businessPhone",
      "businessEmail",
      "serviceAreas",
      "licenseDocumentUrl",
    ],
  },
  {
    file: "api.vehicles",
    path: "/api/vehicles",
    who: "buyer",
    fields: ["title", "make", "model", "year", "price", "currency", "condition", "city", "mileage"],
  },
  {
    file: "api.membership.subscribe",
    path: "/api/membership/subscribe",
    who: "buyer",
    fields: ["planId", "campaignId"],
  },
  {
    file: "api.membership.start-trial",
    path: "/api/membership/start-trial",
    who: "buyer",
    fields: ["planId", "campaignId"],
  },
  {
    file: "api.service-orders",
    path: "/api/service-orders",
    who: "buyer",
    fields: [
      "purchaseId",
      "serviceType",
      "deliveryCity",
      "deliveryState",
      "exportPort",
      "destinationCountry",
    ],
  },
  {
    file: "api.admin.kyc.$id.reject",
    path: "/api/admin/kyc/1/reject",
    who: "admin",
    params: { id: "1" },
    fields: ["reason"],
  },
  {
    file: "api.admin.users.$id",
    path: `/api/admin/users/${NO_SUCH_UUID}`,
    who: "admin",
    params: { id: NO_SUCH_UUID },
    fields: ["role", "verified"],
  },
  {
    file: "api.admin.settings",
    path: "/api/admin/settings",
    who: "admin",
    fields: ["maintenanceMode", "registrationOpen", "betaBanner"],
  },
  {
    file: "api.admin.service-orders",
    path: "/api/admin/service-orders",
    who: "admin",
    fields: ["serviceType", "lotId", "vehicleLabel", "payout", "pickupCity", "pickupState"],
  },
  {
    file: "api.admin.affiliates.$id.reject",
    path: "/api/admin/affiliates/1/reject",
    who: "admin",
    params: { id: "1" },
    fields: ["reason"],
  },
];

const MEGABYTE = "x".repeat(1024 * 1024);

/** Values no field of any call accepts for all of its fields at once. */
const GARBAGE: Array<[string, unknown]> = [
  ["empty strings", ""],
  ["1 MB strings", MEGABYTE],
  ["control and bidi characters", "\u0000\u0007\u202e\ufeff"],
  ["negative numbers", -1],
  ["zero", 0],
  ["NaN", "NaN"],
  ["Infinity", "Infinity"],
  ["three decimals", "400.005"],
  ["exponent notation", "1e3"],
  ["markup", "<script>alert(1)</script>"],
  ["SQL", "'; DROP TABLE users; --"],
  ["nested objects", { $gt: "" }],
  ["arrays of nulls", [null]],
  ["null", null],
];

type Body = { label: string; init: RequestInit & { json?: unknown } };

function bodiesFor(endpoint: Endpoint): Body[] {
  const fill = (value: unknown) => Object.fromEntries(endpoint.fields.map((f) => [f, value]));
  return [
    { label: "no fields", init: { json: {} } },
    { label: "only unknown fields", init: { json: { unexpected: true, __proto__x: 1 } } },
    { label: "a bare string", init: { json: "hello" } },
    { label: "a bare number", init: { json: 42 } },
    { label: "an array", init: { json: [fill("1")] } },
    { label: "JSON null", init: { json: null } },
    ...GARBAGE.map(([label, value]) => ({
      label: `all fields ${label}`,
      init: { json: fill(value) },
    })),
    {
      label: "malformed JSON",
      init: { body: '{"amount": 400,', headers: { "Content-Type": "application/json" } },
    },
    {
      label: "the wrong content type",
      init: { body: "amount=400", headers: { "Content-Type": "text/plain" } },
    },
    {
      label: "an oversized body",
      init: {
        body: JSON.stringify({ pad: "y".repeat(3 * 1024 * 1024) }),
        headers: { "Content-Type": "application/json" },
      },
    },
  ];
}

async function snapshot() {
  const tables = await sequelize.query<{ table_name: string }>(
    "select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' and table_name not in ('rate_limits', 'sessions', 'schema_migrations') order by 1",
    { type: QueryTypes.SELECT },
  );
  const counts: Record<string, string> = {};
  for (const { table_name } of tables) {
    const [row] = await sequelize.query<{ n: string }>(
      `select count(*) as n from "${table_name}"`,
      {
        type: QueryTypes.SELECT,
      },
    );
    counts[table_name] = row.n;
  }
  const [money] = await sequelize.query<{ deposits: string; ledger: string }>(
    "select (select coalesce(sum(deposit), 0) from users) as deposits, (select coalesce(sum(amount), 0) from deposit_entries) as ledger",
    { type: QueryTypes.SELECT },
  );
  return { counts, money };
}

async function call(handler: Handler, request: Request, params: Record<string, string>) {
  try {
    const result = await handler({ request, params, context: {} });
    return result instanceof Response ? result : new Response(JSON.stringify(result));
  } catch (error) {
    if (error instanceof Response) return error;
    throw error;
  }
}

const people = {} as Record<Who, User>;

beforeAll(async () => {
  people.buyer = await createTestUser({ verified: true, deposit: "0.00" });
  people.admin = await createTestUser({ role: "admin", verified: true });
});

describe("bad input", () => {
  for (const endpoint of ENDPOINTS) {
    it(`${endpoint.method ?? "POST"} ${endpoint.path}: every bad body gets a clear 4xx and writes nothing`, async () => {
      const mod = (await import(`../../app/routes/${endpoint.file}.ts`)) as { action: Handler };
      const before = await snapshot();
      const failures: string[] = [];
      for (const body of bodiesFor(endpoint)) {
        const request = await requestAs(people[endpoint.who], endpoint.path, {
          method: endpoint.method ?? "POST",
          ...body.init,
        });
        const response = await call(mod.action, request, endpoint.params ?? {});
        const text = await response.text();
        if (response.status < 400 || response.status >= 500) {
          failures.push(`${body.label}: ${response.status} ${text.slice(0, 120)}`);
        } else if (!/[A-Za-z]{3,}/.test(text)) {
          failures.push(`${body.label}: ${response.status} without a message`);
        }
      }
      expect(failures).toEqual([]);
      expect(await snapshot()).toEqual(before);
    });
  }

  it("covers at least 200 cases", () => {
    const total = ENDPOINTS.reduce((sum, endpoint) => sum + bodiesFor(endpoint).length, 0);
    expect(total).toBeGreaterThanOrEqual(200);
  });
});
