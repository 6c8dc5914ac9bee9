// Which errors mean "the database is unreachable right now" (503) and which are bugs (500).
import { ConnectionRefusedError, DatabaseError, UniqueConstraintError } from "sequelize";
import { describe, expect, it } from "vitest";
import { isDatabaseOutage, whileDatabaseUp } from "~/platform/availability.server";

const pgError = (message: string, code?: string) =>
  Object.assign(new Error(message), { code, sql: "select 1", parameters: {} });

describe("isDatabaseOutage", () => {
  it.each([
    ["Sequelize: connection refused", new ConnectionRefusedError(pgError("connect ECONNREFUSED"))],
    [
      "Sequelize: terminated by an administrator (57P01)",
      new DatabaseError(pgError("terminating connection due to administrator command", "57P01")),
    ],
    [
      "raw pg: the server is starting up (57P03)",
      pgError("the database system is starting up", "57P03"),
    ],
    ["raw pg: the connection dropped mid-query", pgError("Connection terminated unexpectedly")],
    ["node: connection reset", pgError("read ECONNRESET", "ECONNRESET")],
  ])("%s is an outage", (_name, error) => {
    expect(isDatabaseOutage(error)).toBe(true);
  });

  it.each([
    ["a unique violation", new UniqueConstraintError({ message: "duplicate key" })],
    ["a syntax error", new DatabaseError(pgError('syntax error at or near "x"', "42601"))],
    ["a plain bug", new TypeError("Cannot read properties of undefined")],
    ["a Response thrown by a route", new Response("no", { status: 404 })],
  ])("%s is not", (_name, error) => {
    expect(isDatabaseOutage(error)).toBe(false);
  });
});

describe("whileDatabaseUp", () => {
  const call = new Request("http://localhost/api/bids", { method: "POST" });
  const page = new Request("http://localhost/deposit", { headers: { Accept: "text/html" } });

  it("turns an outage into a 503 with Retry-After: JSON for calls, text for pages", async () => {
    const outage = () => Promise.reject(pgError("Connection terminated unexpectedly"));
    const json = (await whileDatabaseUp(call, outage).catch((e: unknown) => e)) as Response;
    expect(json.status).toBe(503);
    expect(json.headers.get("retry-after")).toBe("10");
    expect(((await json.json()) as { message: string }).message).toContain("briefly unavailable");
    const text = (await whileDatabaseUp(page, outage).catch((e: unknown) => e)) as Response;
    expect(text.status).toBe(503);
    expect(await text.text()).toContain("briefly unavailable");
  });

  it("passes answers and other errors through untouched", async () => {
    expect(await whileDatabaseUp(call, async () => 42)).toBe(42);
    const bug = new TypeError("bug");
    await expect(whileDatabaseUp(call, () => Promise.reject(bug))).rejects.toBe(bug);
    const refusal = new Response("Too many", { status: 429 });
    await expect(whileDatabaseUp(call, () => Promise.reject(refusal))).rejects.toBe(refusal);
  });
});
