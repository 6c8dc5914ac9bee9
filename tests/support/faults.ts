// Helpers for the fault tests that run the production server against a cluster of their own:
// people and lots written straight into that database, and the invariants checked afterwards.
import { createHash, randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { createCookie } from "@remix-run/node";
import type pg from "pg";
import { expect } from "vitest";
import { waitFor } from "./wait";

export type Person = { id: string; email: string; cookie: string };

export const cents = (value: string) => Math.round(Number(value) * 100);
export const dollars = (value: number) => (value / 100).toFixed(2);
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Signed-in, verified people with an opening balance written through the ledger. */
export async function createBidders(
  client: pg.Client,
  secret: string,
  count: number,
  opening: string,
  label: string,
): Promise<Person[]> {
  const cookieOf = createCookie("__session", { secrets: [secret] });
  const people: Person[] = [];
  for (let i = 0; i < count; i++) {
    const email = `${label}-${i}-${randomBytes(3).toString("hex")}@bidyard.test`;
    const {
      rows: [user],
    } = await client.query<{ id: string }>(
      "insert into users (email, first_name, verified, deposit) values ($1, 'Fault', true, $2) returning id",
      [email, opening],
    );
    await client.query(
      `insert into deposit_entries (user_id, kind, amount, balance_after, memo)
       values ($1, 'adjustment', $2, $2, 'Opening balance')`,
      [user.id, opening],
    );
    const token = randomBytes(32).toString("base64url");
    await client.query(
      "insert into sessions (id, user_id, expires_at) values ($1, $2, now() + interval '1 hour')",
      [createHash("sha256").update(token).digest("hex"), user.id],
    );
    const signed = await cookieOf.serialize(token);
    people.push({ id: user.id, email, cookie: signed.split(";")[0] });
  }
  return people;
}

let lotCounter = 0;

/** Open lots (started an hour ago) ending `endsInMs` from now. */
export async function createLots(client: pg.Client, count: number, endsInMs = 24 * 3600_000) {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    lotCounter += 1;
    const {
      rows: [lot],
    } = await client.query<{ id: string }>(
      `insert into lots (auction_house, lot_number, vin, year, make, model, location_city,
                         location_state, starts_at, ends_at)
       values ('copart', $1, $2, 2019, 'Ford', 'F-150', 'Dallas', 'TX',
               now() - interval '1 hour', now() + $3 * interval '1 millisecond')
       returning id`,
      [
        `F${process.pid}${lotCounter}${randomBytes(2).toString("hex")}`.slice(0, 20),
        `1FTEW1EP5JK${String(100000 + lotCounter).slice(-6)}`,
        endsInMs,
      ],
    );
    ids.push(lot.id);
  }
  return ids;
}

type BidRow = {
  id: string;
  lot_id: string;
  user_id: string;
  amount: string;
  max_amount: string;
  is_proxy: boolean;
  automatic: boolean;
  /** a leader's raise of their own maximum (docs/decisions/2702): not a visible bid */
  max_raise: boolean;
};

export async function bidRows(client: pg.Client, lotIds: string[]) {
  const { rows } = await client.query<BidRow>(
    "select * from bids where lot_id = any($1::bigint[]) order by id",
    [lotIds],
  );
  return rows;
}

/**
 * Replays a lot's bid rows: its counter equals its rows, every typed bid met the increment, the
 * price never fell, and the price, leader and maximum are what the proxy rules give.
 */
export async function checkLotAgreesWithBids(client: pg.Client, lotId: string) {
  const {
    rows: [lot],
  } = await client.query<{
    current_bid: string;
    bid_count: number;
    high_bidder_id: string | null;
    high_max: string | null;
  }>("select current_bid, bid_count, high_bidder_id, high_max from lots where id = $1", [lotId]);
  const rows = await bidRows(client, [lotId]);
  expect(lot.bid_count, `lot ${lotId}: bid_count vs rows`).toBe(
    rows.filter((row) => !row.max_raise).length,
  );
  let price = 0;
  let expected = 0;
  const maxima = new Map<string, { max: number; id: number }>();
  const ranking = () =>
    [...maxima.entries()].sort((a, b) => b[1].max - a[1].max || a[1].id - b[1].id);
  for (const row of rows) {
    if (!row.automatic) {
      if (row.max_raise) {
        // the leader rule (docs/decisions/2702): only the leader raises, and only upwards
        const [leaderId, leader] = ranking()[0];
        expect(row.user_id).toBe(leaderId);
        expect(cents(row.max_amount)).toBeGreaterThan(leader.max);
      } else {
        expect(cents(row.amount)).toBeGreaterThanOrEqual(price + 5000);
      }
      const held = maxima.get(row.user_id);
      if (!held || cents(row.max_amount) > held.max)
        maxima.set(row.user_id, { max: cents(row.max_amount), id: Number(row.id) });
      // a raise moves no price
      if (row.max_raise) continue;
      const [[leaderId, leader], runnerUp] = ranking();
      expected = Math.max(
        runnerUp ? Math.min(leader.max, runnerUp[1].max + 5000) : 0,
        leaderId === row.user_id ? cents(row.amount) : 0,
        expected,
      );
    }
    expect(cents(row.amount)).toBeGreaterThanOrEqual(price);
    price = cents(row.amount);
  }
  expect(cents(lot.current_bid), `lot ${lotId}: current_bid is the last bid`).toBe(price);
  if (rows.length === 0) {
    expect(lot.high_bidder_id).toBeNull();
    return;
  }
  const [leaderId, leader] = ranking()[0];
  expect(lot.high_bidder_id).toBe(leaderId);
  expect(cents(lot.high_max!)).toBe(leader.max);
  expect(cents(lot.current_bid)).toBe(expected);
}

/**
 * The ledger and the balances agree: each user's deposit is the sum of their entries and the
 * newest entry's balance_after; each captured order is credited by exactly one entry of its
 * captured amount, and no other order is credited at all.
 */
export async function checkLedger(client: pg.Client, userIds: string[]) {
  const { rows: users } = await client.query<{
    id: string;
    deposit: string;
    total: string;
    last_balance: string | null;
  }>(
    `select u.id, u.deposit::text,
            coalesce((select sum(amount) from deposit_entries e where e.user_id = u.id), 0)::numeric(12,2)::text as total,
            (select balance_after::text from deposit_entries e where e.user_id = u.id
              order by id desc limit 1) as last_balance
       from users u where u.id = any($1::uuid[])`,
    [userIds],
  );
  expect(users).toHaveLength(userIds.length);
  for (const user of users) {
    expect(user.total, `ledger total of ${user.id}`).toBe(user.deposit);
    expect(user.last_balance, `newest balance_after of ${user.id}`).toBe(user.deposit);
  }
  const { rows: orders } = await client.query<{
    id: string;
    status: string;
    captured_amount: string | null;
    credits: string;
    credited: string | null;
  }>(
    `select o.id, o.status, o.captured_amount::text,
            (select count(*) from deposit_entries e where e.payment_order_id = o.id and e.kind = 'deposit') as credits,
            (select sum(amount)::text from deposit_entries e where e.payment_order_id = o.id and e.kind = 'deposit') as credited
       from payment_orders o where o.user_id = any($1::uuid[])`,
    [userIds],
  );
  for (const order of orders) {
    if (order.status === "captured") {
      expect(Number(order.credits), `credits of captured order ${order.id}`).toBe(1);
      expect(order.credited).toBe(order.captured_amount);
    } else {
      expect(Number(order.credits), `credits of ${order.status} order ${order.id}`).toBe(0);
    }
  }
  return orders;
}

/** No one leads lots (plus unpaid purchases) beyond their deposit. */
export async function checkHoldsWithinDeposits(client: pg.Client, userIds: string[]) {
  const { rows } = await client.query(
    `select u.id from users u
      where u.id = any($1::uuid[])
        and u.deposit < coalesce((select sum(high_max) from lots
                                   where status = 'active' and high_bidder_id = u.id), 0)
                      + coalesce((select sum(amount) from purchases
                                   where user_id = u.id and status = 'pending'), 0)`,
    [userIds],
  );
  expect(rows).toEqual([]);
}

/** SIGQUIT to the postmaster: PostgreSQL's immediate shutdown, a crash as far as data goes. */
export async function crashCluster(dataDir: string) {
  const pidFile = path.join(dataDir, "postmaster.pid");
  const pid = Number(readFileSync(pidFile, "utf8").split("\n")[0]);
  process.kill(pid, "SIGQUIT");
  await waitFor(
    () => {
      try {
        process.kill(pid, 0);
        return false;
      } catch {
        return true;
      }
    },
    { what: `postmaster ${pid} to quit`, timeout: 5_000 },
  );
}

export function clusterRunning(dataDir: string) {
  return existsSync(path.join(dataDir, "postmaster.pid"));
}

// ---- storage that goes away ----------------------------------------------------------------

/** s3rver on a fixed port and folder, so it can be stopped and started again like a real outage. */
export async function startRestartableS3rver() {
  const { default: S3rver } = await import("@20minutes/s3rver");
  const { createS3Storage } = await import("~/platform/storage/s3.server");
  const fs = await import("node:fs/promises");
  const os = await import("node:os");
  const directory = await fs.mkdtemp(path.join(os.tmpdir(), "bidyard-faults-s3-"));
  let port = 0;
  let server: InstanceType<typeof S3rver> | null = null;
  const start = async () => {
    server = new S3rver({
      address: "127.0.0.1",
      port,
      silent: true,
      directory,
      configureBuckets: [{ name: "bidyard-faults" }],
    });
    port = ((await server.run()) as net.AddressInfo).port;
  };
  await start();
  const storage = createS3Storage({
    bucket: "bidyard-faults",
    region: "us-east-1",
    endpoint: `http://127.0.0.1:${port}`,
    accessKeyId: "S3RVER",
    secretAccessKey: "S3RVER",
    timeouts: { connectMs: 500, requestMs: 2_000 },
  });
  return {
    storage,
    directory,
    start,
    stop: async () => {
      await server?.close();
      server = null;
    },
    remove: async () => {
      await server?.close();
      await fs.rm(directory, { recursive: true, force: true });
    },
  };
}

/** An S3 endpoint that accepts connections and never answers (a hung proxy, a black hole). */
export async function startHangingS3() {
  const { createS3Storage } = await import("~/platform/storage/s3.server");
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("data", () => undefined);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    storage: createS3Storage({
      bucket: "bidyard-faults",
      region: "us-east-1",
      endpoint: `http://127.0.0.1:${port}`,
      accessKeyId: "S3RVER",
      secretAccessKey: "S3RVER",
      timeouts: { connectMs: 300, requestMs: 500 },
    }),
    stop: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** The filesystem driver over an upload folder that cannot be written (its path is a file). */
export async function startUnwritableFolder() {
  const { createFilesystemStorage } = await import("~/platform/storage/filesystem.server");
  const fs = await import("node:fs/promises");
  const os = await import("node:os");
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "bidyard-faults-fs-"));
  const root = path.join(dir, "uploads");
  await fs.writeFile(root, "not a folder");
  return {
    storage: createFilesystemStorage({
      root,
      secret: "faults-storage-secret",
      baseUrl: "http://127.0.0.1:1",
    }),
    stop: () => fs.rm(dir, { recursive: true, force: true }),
  };
}

/** A working driver whose puts start failing (an I/O error) after the first `okPuts`. */
export function failingAfter<T extends import("~/platform/storage/types").ObjectStorage>(
  driver: T,
  okPuts: number,
): T {
  let puts = 0;
  return {
    ...driver,
    put: async (key, body, options) => {
      puts += 1;
      if (puts > okPuts) throw Object.assign(new Error("EIO: i/o error, write"), { code: "EIO" });
      return driver.put(key, body, options);
    },
  };
}
