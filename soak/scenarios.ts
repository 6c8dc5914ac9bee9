// What the simulated people do. Each scenario is one visit (one or a few requests, as a browser
// or API client would send them); the runner starts visits at a steady random rate.
import { crc32 } from "node:zlib";
import type { Sent, Traffic } from "./http";
import type { Actor, Cast, Catalog, HotLot, WonPurchase } from "./setup";

export type Ledger = {
  /** order id → users whose claim answered 200 */
  claimWins: Map<string, string[]>;
  /** orders the admin created during the soak */
  ordersCreated: string[];
  /** seller id → listings the app said it posted */
  listingsPosted: Map<string, number>;
  /** user id → deposits the app confirmed (return URL answered /deposit?success=true) */
  depositsConfirmed: Map<string, number>;
  bids: { accepted: number; refused: Map<string, number> };
  /** every bid the JSON call accepted: its lot, the lot's bid count after it, who answered */
  acceptedBids: Array<{ lotId: string; bidCount: number; instance: string }>;
  /** messages to sellers and their replies that the app accepted */
  messages: { sent: number; replies: number; refused: Map<string, number> };
  refunds: { issued: number; refused: Map<string, number> };
  trialsStarted: number;
  listingsDeleted: number;
  listingRefusals: number;
  /** purchase id → payments the app confirmed (an answer sending the buyer to the release) */
  purchasesPaid: Map<string, number>;
  purchasePayments: { viaDeposit: number; viaGateway: number; refused: Map<string, number> };
  /** buyers' transport orders (requested for a won lot), as the app answered them */
  transport: {
    requested: string[];
    /** order id → confirmations that it was paid (deposit answer or gateway return) */
    paid: Map<string, number>;
    /**
     * orders paid in a race of every way at once (the JSON call, the form, approved checkouts'
     * returns): id → answers that showed it paid; one charge is checked in the database
     */
    raced: Map<string, number>;
    /** orders whose complete answered 200 */
    completed: string[];
    refused: Map<string, number>;
  };
  /**
   * Files stored through one instance and read through another (the same one, with one
   * instance): KYC documents the admin opens, listing photos anyone sees (docs/decisions/3105).
   */
  files: {
    kycStored: number;
    kycRead: number;
    photosStored: number;
    photosRead: number;
    /**
     * uploads or reads cut short by the upload rate limit (429), a 5xx or a network error (the
     * soak's own checks count those): not misses of a stored file
     */
    refused: Map<string, number>;
    /** what could not be read through the other instance, or read back different */
    missed: string[];
  };
};

export function newLedger(): Ledger {
  return {
    claimWins: new Map(),
    ordersCreated: [],
    listingsPosted: new Map(),
    depositsConfirmed: new Map(),
    bids: { accepted: 0, refused: new Map() },
    acceptedBids: [],
    messages: { sent: 0, replies: 0, refused: new Map() },
    refunds: { issued: 0, refused: new Map() },
    trialsStarted: 0,
    listingsDeleted: 0,
    listingRefusals: 0,
    purchasesPaid: new Map(),
    purchasePayments: { viaDeposit: 0, viaGateway: 0, refused: new Map() },
    transport: {
      requested: [],
      paid: new Map(),
      raced: new Map(),
      completed: [],
      refused: new Map(),
    },
    files: {
      kycStored: 0,
      kycRead: 0,
      photosStored: 0,
      photosRead: 0,
      refused: new Map(),
      missed: [],
    },
  };
}

/** A buyer's transport job, as the buyer and the providers know it. */
export type TransportJob = {
  id: string;
  buyer: Actor;
  paid: boolean;
  claimedBy: Actor | null;
  completed: boolean;
  busy: boolean;
};

export type World = {
  http: Traffic;
  cast: Cast;
  catalog: Catalog;
  hot: HotLot[];
  ledger: Ledger;
  /** the sellers' own listing ids (from the app's answers), for deleting one now and then */
  ownListings: Map<string, string[]>;
  /** the buyers' won purchases (setup) and the transport jobs they asked for */
  won: WonPurchase[];
  jobs: TransportJob[];
};

const rand = (n: number) => Math.floor(Math.random() * n);
const pick = <T>(items: readonly T[]): T => items[rand(items.length)];
const chance = (p: number) => Math.random() < p;
const bump = (map: Map<string, number>, key: string, by = 1) =>
  map.set(key, (map.get(key) ?? 0) + by);

function weighted<T>(options: Array<[number, T]>): T {
  const total = options.reduce((sum, [w]) => sum + w, 0);
  let r = Math.random() * total;
  for (const [w, value] of options) {
    r -= w;
    if (r < 0) return value;
  }
  return options[options.length - 1][1];
}

const qs = (params: Record<string, string | undefined>) => {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) search.set(k, v);
  const text = search.toString();
  return text ? `?${text}` : "";
};

const MAKES = ["Toyota", "Honda", "Ford", "Chevrolet", "Nissan", "Jeep", "BMW", "Tesla"];
const STATES = ["TX", "CA", "FL", "GA", "AZ", "IL", "NY"];
const DAMAGE = ["collision", "flood", "hail", "theft", "fire", "mechanical"];
const SEARCHES = [
  "civic",
  "camry",
  "f-150",
  "tacoma",
  "model 3",
  "wrangler",
  "silverado",
  "accord",
];

function auctionFilters() {
  return qs({
    make: chance(0.4) ? pick(MAKES) : undefined,
    location: chance(0.3) ? pick(STATES) : undefined,
    damageType: chance(0.25) ? pick(DAMAGE) : undefined,
    auctionHouse: chance(0.2) ? pick(["copart", "iaai"]) : undefined,
    yearMin: chance(0.15) ? "2015" : undefined,
    yearMax: chance(0.1) ? "2021" : undefined,
    runsDrives: chance(0.1) ? pick(["yes", "no"]) : undefined,
    titleType: chance(0.1) ? pick(["clean", "salvage"]) : undefined,
  });
}

function listingFilters() {
  return qs({
    make: chance(0.35) ? pick(MAKES) : undefined,
    condition: chance(0.2) ? pick(["excellent", "good", "fair"]) : undefined,
    bodyType: chance(0.2) ? pick(["sedan", "suv", "truck"]) : undefined,
    country: chance(0.2) ? pick(["US", "CA", "MX"]) : undefined,
    yearMin: chance(0.15) ? "2012" : undefined,
    priceMax: chance(0.15) ? "30000" : undefined,
  });
}

const withParam = (path: string, key: string, value: string) =>
  `${path}${path.includes("?") ? "&" : "?"}${key}=${value}`;

/**
 * One page view. Anonymous visitors see the public pages (home, community listings, a vehicle,
 * plans) and now and then hit an auction page, which sends them to sign in; signed-in users also
 * browse the auctions with filters, keyset pages and client-side (single fetch) navigations.
 */
export async function browse(world: World, viewer: Actor | null) {
  const { http, catalog, hot } = world;
  const kind = viewer ? "browse (signed in)" : "browse (anonymous)";
  const cookie = viewer?.cookie;
  const get = (path: string, as = kind) => http.send(as, path, { cookie });
  const pages: Array<[number, () => Promise<unknown>]> = [
    [8, () => get("/")],
    [14, () => get(`/community-vehicles${listingFilters()}`)],
    [4, () => get(`/community-vehicles.data${listingFilters()}`)],
    [
      5,
      async () => {
        // the next keyset page, by the cursor the list call gives
        const filters = listingFilters();
        const api = await get(`/api/vehicles${filters}`);
        const cursor = api.headers.get("x-next-cursor");
        if (cursor)
          await get(
            withParam(`/community-vehicles${filters}`, "cursor", encodeURIComponent(cursor)),
          );
      },
    ],
    [14, () => get(`/vehicle/${pick(catalog.listingIds)}`)],
    [6, () => get(`/community-vehicles?search=${encodeURIComponent(pick(SEARCHES))}`, "search")],
    [2, () => get(`/api/vehicles?search=${encodeURIComponent(pick(SEARCHES))}`, "search")],
    [2, () => get("/membership")],
  ];
  if (!viewer) {
    pages.push([3, () => get(`/auctions/${pick(catalog.lotIds)}`)]);
  } else {
    pages.push(
      [16, () => get(`/auctions${auctionFilters()}`)],
      [4, () => get(`/auctions.data${auctionFilters()}`)],
      [
        8,
        async () => {
          // the next keyset page, by the link the first page gives
          const first = await get(`/auctions${auctionFilters()}`);
          const next = /href="(\/auctions\?[^"]*cursor=[^"]+)"/.exec(first.text);
          if (next) await get(next[1].replace(/&amp;/g, "&"));
        },
      ],
      [18, () => get(`/auctions/${chance(0.4) ? pick(hot).id : pick(catalog.lotIds)}`)],
      [2, () => get(`/auctions/${pick(catalog.endedLotIds)}`)],
      [6, () => get(`/auctions?search=${encodeURIComponent(pick(SEARCHES))}`, "search")],
      [3, () => get(`/api/auctions${auctionFilters()}`)],
      [1, () => get(`/auctions/${900_000_000 + rand(1000)}`)],
      [2, () => get("/deposit")],
    );
  }
  await weighted(pages)();
}

const CENT = 100;
const INCREMENT = 50 * CENT;
const SOFT_CLOSE_MS = 2 * 60 * 1000;
const money = (cents: number) => (cents / 100).toFixed(2);

/** The lot a bidder goes for: an open hot lot, rarely a closing one (a snipe), or an ended one. */
function chooseLot(hot: HotLot[]): HotLot | null {
  const now = Date.now();
  if (chance(0.03)) {
    const closed = hot.filter((l) => l.closed || l.endsAt <= now);
    if (closed.length) return pick(closed);
  }
  const open = hot.filter((l) => !l.closed && l.endsAt - now > SOFT_CLOSE_MS + 15_000);
  const closing = hot.filter(
    (l) => !l.closed && l.endsAt > now + 2_000 && l.endsAt - now <= SOFT_CLOSE_MS + 15_000,
  );
  // a few last-minute bids per lot trigger the soft close, then the lot is left to end
  const snipe = closing.filter((l) => l.snipes < 2);
  if (snipe.length && chance(0.05)) {
    const lot = pick(snipe);
    lot.snipes += 1;
    return lot;
  }
  return open.length ? pick(open) : null;
}

function noteRefusal(world: World, status: number, text: string, lot: HotLot) {
  let reason = `${status}`;
  try {
    const body = JSON.parse(text) as { title?: string; error?: string };
    reason = `${status} ${body.title ?? body.error ?? ""}`.trim();
    const min = /Minimum bid is \$([\d,]+\.\d{2})/.exec(body.error ?? "");
    if (min)
      lot.currentCents = Math.max(
        lot.currentCents,
        Math.round(Number(min[1].replace(/,/g, "")) * 100) - INCREMENT,
      );
    if (status === 409) lot.closed = true;
  } catch {
    // a page answer
  }
  bump(world.ledger.bids.refused, reason);
}

/** One bid: mostly the JSON call, sometimes the lot page's form (no JS). Some are proxy bids. */
export async function bid(world: World) {
  const lot = chooseLot(world.hot);
  if (!lot) return;
  const bidder = chance(0.04) ? pick(world.cast.onlookers) : pick(world.cast.bidders);
  const amount = lot.currentCents + INCREMENT * (1 + rand(3));
  const proxy = chance(0.25);
  const max = proxy ? amount + INCREMENT * (2 + rand(16)) : undefined;
  if (chance(0.2)) {
    const form: Record<string, string> = { intent: "bid", amount: money(amount) };
    if (proxy) Object.assign(form, { isProxyBid: "on", maxAmount: money(max!) });
    const sent = await world.http.send("bid (form)", `/auctions/${lot.id}`, {
      cookie: bidder.cookie,
      form,
    });
    // a 302 carries the outcome in a toast cookie; a refusal re-renders the form with a 4xx
    if (sent.status >= 400 && sent.status < 500)
      bump(world.ledger.bids.refused, `${sent.status} (form)`);
    // follow the redirect like the browser does
    const location = sent.headers.get("location");
    if (location && location.startsWith("/auctions/"))
      await world.http.send("bid (form)", location, { cookie: bidder.cookie });
    return;
  }
  const sent = await world.http.send("bid (json)", "/api/bids", {
    cookie: bidder.cookie,
    json: {
      vehicleId: lot.id,
      amount: money(amount),
      isProxyBid: proxy,
      ...(proxy ? { maxAmount: money(max!) } : {}),
    },
  });
  if (sent.status === 201) {
    const { bid: placed } = JSON.parse(sent.text) as {
      bid: { currentBid: string; endsAt: string; bidCount: number };
    };
    world.ledger.bids.accepted += 1;
    world.ledger.acceptedBids.push({
      lotId: lot.id,
      bidCount: placed.bidCount,
      instance: sent.instance,
    });
    lot.currentCents = Math.max(lot.currentCents, Math.round(Number(placed.currentBid) * 100));
    lot.endsAt = Math.max(lot.endsAt, new Date(placed.endsAt).getTime());
  } else if (sent.status >= 400 && sent.status < 500) {
    noteRefusal(world, sent.status, sent.text, lot);
  }
}

/** A deposit through the TEST MODE gateway: pay → approval page → approve → return. */
export async function deposit(world: World, funding?: { user: Actor; amount: string }) {
  const { http } = world;
  const user = funding?.user ?? (chance(0.8) ? pick(world.cast.bidders) : pick(world.cast.sellers));
  const kind = "deposit";
  await http.send(kind, "/deposit", { cookie: user.cookie });
  if (!funding && chance(0.1)) {
    const refund = await http.send(kind, "/deposit", {
      cookie: user.cookie,
      form: { intent: "refund", refundAmount: pick(["50.00", "100.00", "250.00"]) },
    });
    if (refund.status === 302) world.ledger.refunds.issued += 1;
    else {
      const reason = /You can refund at most|only deposits paid/.exec(refund.text)?.[0] ?? "";
      bump(world.ledger.refunds.refused, `${refund.status} ${reason}`.trim());
    }
    return;
  }
  const amount = funding?.amount ?? pick(["500", "1000", "2500", "5000", "10000"]);
  const pay = await http.send(kind, "/deposit", {
    cookie: user.cookie,
    form: { intent: "pay", amount },
  });
  const approval = pay.headers.get("location");
  if (pay.status !== 302 || !approval) return;
  const cancel = !funding && chance(0.08);
  const back = await throughTestGateway(http, kind, approval, user.cookie, cancel);
  // success and refusal both land on /deposit; the flash toast says which
  if (!cancel && back && flashToast(back.answer)?.type === "success") {
    bump(world.ledger.depositsConfirmed, user.id);
    // the browser lands on the deposit page; a reload of the return URL must not credit twice
    await http.send(kind, "/deposit", { cookie: user.cookie });
    if (chance(0.2)) await http.send(kind, back.path, { cookie: user.cookie });
  }
}

/**
 * The flash toast an answer sets for the next page (the `__toast` cookie: base64 JSON and its
 * signature, as @remix-run/node's createCookie writes it), or null.
 */
function flashToast(sent: Sent): { title?: string; type?: string } | null {
  const raw = /(?:^|,\s*)__toast=([^;]+)/.exec(sent.headers.get("set-cookie") ?? "")?.[1];
  if (!raw) return null;
  const value = decodeURIComponent(raw);
  try {
    const json = Buffer.from(value.slice(0, value.lastIndexOf(".")), "base64").toString("latin1");
    return JSON.parse(decodeURIComponent(escape(json))) as { title?: string; type?: string };
  } catch {
    return null;
  }
}

/**
 * The TEST MODE gateway as a browser walks it: its approval page, approve (or cancel), then back
 * to the app's return (or cancel) URL, signed in. Answers that last answer and its path.
 */
async function throughTestGateway(
  http: Traffic,
  kind: string,
  approval: string,
  cookie: string,
  cancel = false,
) {
  const approvalUrl = new URL(approval, http.base);
  const token = approvalUrl.searchParams.get("token") ?? "";
  const checkoutPath = `${approvalUrl.pathname}${approvalUrl.search}`;
  await http.send(kind, checkoutPath);
  const decided = await http.send(kind, checkoutPath, {
    form: { token, intent: cancel ? "cancel" : "approve" },
  });
  const back = decided.headers.get("location");
  if (decided.status !== 302 || !back) return null;
  const backUrl = new URL(back, http.base);
  const path = `${backUrl.pathname}${backUrl.search}`;
  return { path, answer: await http.send(kind, path, { cookie }) };
}

/** Approves a checkout at the TEST MODE gateway and answers the app's return path, not yet walked. */
async function approveAtGateway(http: Traffic, kind: string, approval: string) {
  const approvalUrl = new URL(approval, http.base);
  const token = approvalUrl.searchParams.get("token") ?? "";
  const checkoutPath = `${approvalUrl.pathname}${approvalUrl.search}`;
  const decided = await http.send(kind, checkoutPath, { form: { token, intent: "approve" } });
  const back = decided.headers.get("location");
  if (decided.status !== 302 || !back) return null;
  const backUrl = new URL(back, http.base);
  return `${backUrl.pathname}${backUrl.search}`;
}

function listingFields(seller: Actor) {
  const make = pick(MAKES);
  return {
    title: `${2010 + rand(14)} ${make} soak listing ${rand(1_000_000)}`,
    description: "Runs and drives. Posted by the soak test.",
    make,
    model: pick(["Camry", "Civic", "F-150", "Model 3", "Wrangler", "Altima"]),
    year: String(2008 + rand(16)),
    mileage: String(10_000 + rand(150_000)),
    price: String(3_000 + rand(40_000)),
    currency: "USD",
    condition: pick(["excellent", "good", "fair", "poor"]),
    bodyType: pick(["sedan", "suv", "truck", "coupe"]),
    country: "US",
    state: "TX",
    city: pick(["Dallas", "Austin", "Houston"]),
    zipCode: "75201",
    _seller: seller.email,
  };
}

let photo: Buffer | null = null;
async function photoBytes() {
  if (!photo) {
    const sharp = (await import("sharp")).default;
    photo = await sharp({
      create: { width: 640, height: 480, channels: 3, background: { r: 40, g: 90, b: 160 } },
    })
      .jpeg({ quality: 70 })
      .toBuffer();
  }
  return photo;
}

async function postOne(world: World, seller: Actor) {
  const { http, ledger } = world;
  const { _seller, ...fields } = listingFields(seller);
  void _seller;
  if (chance(0.7)) {
    const sent = await http.send("post listing", "/api/vehicles", {
      cookie: seller.cookie,
      json: fields,
    });
    if (sent.status === 201) {
      bump(ledger.listingsPosted, seller.id);
      const { id } = JSON.parse(sent.text) as { id: string | number };
      world.ownListings.set(seller.id, [...(world.ownListings.get(seller.id) ?? []), String(id)]);
      return "posted";
    }
    if (sent.status === 403) return "limit";
    return "other";
  }
  // the Post Vehicle page's own form (multipart, sometimes with a photo that sharp resizes)
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  const withPhoto = chance(0.5);
  if (withPhoto)
    form.append(
      "photos",
      new Blob([new Uint8Array(await photoBytes())], { type: "image/jpeg" }),
      "car.jpg",
    );
  const sent = await http.send("post listing", "/post-vehicle", {
    cookie: seller.cookie,
    multipart: form,
  });
  const location = sent.headers.get("location") ?? "";
  const posted = /^\/vehicle\/(\d+)$/.exec(location);
  if (sent.status === 302 && posted) {
    bump(ledger.listingsPosted, seller.id);
    // the listing's page, and its photo, served by another machine than the one that stored it
    const reader = http.otherInstance(sent.instance);
    const page = await http.send("post listing", location, {
      cookie: seller.cookie,
      instance: reader,
    });
    if (withPhoto) await readPhotoAcross(world, page, sent.instance, reader);
    // only now one the seller may delete (a deletion while the photo is read is no miss)
    world.ownListings.set(seller.id, [...(world.ownListings.get(seller.id) ?? []), posted[1]]);
    return "posted";
  }
  if (sent.status === 302 && location === "/membership") return "limit";
  return "other";
}

/**
 * The photo a listing's page shows, read through the machine that stored it and through another:
 * both must answer the same JPEG.
 */
async function readPhotoAcross(world: World, page: Sent, storedBy: string, reader: string) {
  const { http, ledger } = world;
  const files = ledger.files;
  files.photosStored += 1;
  // the page itself failing (a network error, an overloaded 5xx) is not the photo's
  if (page.status === 0 || page.status >= 500)
    return void bump(files.refused, `listing page ${page.status}`);
  const id = /\/listing-photos\/(\d+)/.exec(page.text)?.[1];
  if (page.status !== 200 || !id) {
    files.missed.push(`listing page ${page.status} via ${reader} showed no photo`);
    return;
  }
  const [there, here] = await Promise.all(
    [reader, storedBy].map((instance) =>
      http.send("post listing", `/listing-photos/${id}`, { instance, bytes: true }),
    ),
  );
  if (there.status === 0 || here.status === 0)
    return void bump(files.refused, "photo: network error");
  const jpeg = (s: Sent) =>
    s.status === 200 && s.bytes![0] === 0xff && s.bytes![1] === 0xd8 && s.bytes![2] === 0xff;
  if (jpeg(there) && jpeg(here) && Buffer.from(there.bytes!).equals(Buffer.from(here.bytes!)))
    files.photosRead += 1;
  else
    files.missed.push(
      `photo ${id} stored via ${storedBy}: ${here.status} there, ${there.status} via ${reader}` +
        (there.status === 200 ? " (different bytes)" : ""),
    );
}

/** A seller posts (now and then three at once); past the free allowance some start a trial. */
export async function postListing(world: World) {
  const { http, ledger, catalog } = world;
  const seller = pick(world.cast.sellers);
  await http.send("post listing", "/post-vehicle", { cookie: seller.cookie });
  const mine = world.ownListings.get(seller.id) ?? [];
  if (mine.length && chance(0.1)) {
    const id = mine.splice(rand(mine.length), 1)[0];
    const sent = await http.send("post listing", `/vehicle/${id}`, {
      cookie: seller.cookie,
      form: { intent: "delete" },
    });
    if (sent.status === 302) ledger.listingsDeleted += 1;
    return;
  }
  const outcomes = chance(0.1)
    ? await Promise.all([postOne(world, seller), postOne(world, seller), postOne(world, seller)])
    : [await postOne(world, seller)];
  const refused = outcomes.filter((o) => o === "limit").length;
  ledger.listingRefusals += refused;
  if (refused && chance(0.25)) {
    const trial = await http.send("post listing", "/api/membership/start-trial", {
      cookie: seller.cookie,
      json: { planId: catalog.basicPlanId, campaignId: catalog.trialCampaignId },
    });
    if (trial.status === 201) ledger.trialsStarted += 1;
  }
}

const ROUTES: Array<Record<string, string>> = [
  { serviceType: "shipping", pickup: "Dallas, TX", delivery: "Houston, TX" },
  { serviceType: "shipping", pickup: "Phoenix, AZ", delivery: "Denver, CO" },
  { serviceType: "shipping", pickup: "Atlanta, GA", delivery: "Charlotte, NC" },
  {
    serviceType: "export",
    pickup: "Houston, TX",
    exportPort: "Galveston, TX",
    destinationCountry: "Guatemala",
  },
  {
    serviceType: "export",
    pickup: "Atlanta, GA",
    exportPort: "Savannah, GA",
    destinationCountry: "Dominican Republic",
  },
];

/** The admin posts a job; several approved carriers race to claim it; the winner works it. */
export async function serviceOrder(world: World) {
  const { http, cast, ledger } = world;
  const kind = "service orders";
  const route = pick(ROUTES);
  const created = await http.send(kind, "/api/admin/service-orders", {
    cookie: cast.admin.cookie,
    json: {
      ...route,
      vehicleLabel: `2019 ${pick(MAKES)} soak job ${rand(100_000)}`,
      vehicleType: pick(["sedan", "suv", "truck"]),
    },
  });
  if (created.status !== 201) return;
  const { id } = JSON.parse(created.text) as { id: string };
  ledger.ordersCreated.push(id);
  const racers = [...cast.affiliates].sort(() => Math.random() - 0.5).slice(0, 2 + rand(4));
  await http.send(kind, "/service-orders", { cookie: racers[0].cookie });
  const contenders: Actor[] = chance(0.2) ? [...racers, pick(cast.pendingAffiliates)] : racers;
  const results = await Promise.all(
    contenders.map(async (carrier) => ({
      carrier,
      sent: await http.send(kind, `/api/service-orders/${id}/claim`, {
        cookie: carrier.cookie,
        method: "POST",
      }),
    })),
  );
  const winners = results.filter((r) => r.sent.status === 200).map((r) => r.carrier);
  ledger.claimWins.set(
    id,
    winners.map((w) => w.id),
  );
  const winner = winners[0];
  if (!winner) return;
  await http.send(kind, `/service-orders/${id}`, { cookie: winner.cookie });
  if (chance(0.6)) {
    await http.send(kind, `/api/service-orders/${id}/start`, {
      cookie: winner.cookie,
      method: "POST",
    });
    if (chance(0.7))
      await http.send(kind, `/api/service-orders/${id}/complete`, {
        cookie: winner.cookie,
        method: "POST",
      });
  }
}

/** A bidder reads their notifications (outbid, won) and sometimes marks them read. */
export async function notifications(world: World) {
  const user = pick(world.cast.bidders);
  const kind = "notifications";
  const page = await world.http.send(kind, "/notifications", { cookie: user.cookie });
  if (chance(0.25)) {
    await world.http.send(kind, "/notifications?index", { cookie: user.cookie, form: {} });
  } else if (chance(0.2)) {
    const older = /href="\/notifications\?before=(\d+)"/.exec(page.text);
    if (older)
      await world.http.send(kind, `/notifications?before=${older[1]}`, { cookie: user.cookie });
  }
}

const hidden = (html: string, name: string) =>
  new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? null;
const returnsTo = (answer: { headers: Headers } | undefined) =>
  answer?.headers.get("location") ?? "";
const isApproval = (location: string) => /[?&]token=/.test(location);

function noteAppRefusal(map: Map<string, number>, what: string, status: number, text: string) {
  const reason =
    /already paid|has changed|no longer covers|not awaiting|did not go through|Too many/i.exec(
      text,
    )?.[0] ?? "";
  bump(map, `${what} ${status} ${reason}`.trim());
}

/**
 * A buyer pays an invoice from its page: the deposit first, the rest through the TEST MODE
 * gateway. Now and then the pay button is pressed several times at once and every approval is
 * walked: the invoice must still be settled once.
 */
export async function payInvoice(world: World) {
  const { http, ledger } = world;
  const kind = "pay invoice";
  const open = world.won.filter((p) => !p.paid && !p.busy);
  if (open.length === 0) return;
  const purchase = pick(open);
  const { cookie } = purchase.buyer;
  purchase.busy = true;
  try {
    if (chance(0.3)) await http.send(kind, "/my-auctions", { cookie });
    const path = `/purchases/${purchase.id}`;
    const release = `${path}/release`;
    const page = await http.send(kind, path, { cookie });
    const amount = hidden(page.text, "amount");
    if (page.status !== 200 || amount === null) return;
    const clicks = chance(0.3) ? 2 + rand(4) : 1;
    const answers = await Promise.all(
      Array.from({ length: clicks }, () =>
        http.send(kind, path, { cookie, form: { intent: "pay", amount } }),
      ),
    );
    const outcomes = await Promise.all(
      answers.map(async (sent) => {
        const location = returnsTo(sent);
        if (sent.status === 302 && location === release) {
          ledger.purchasePayments.viaDeposit += 1;
          return true;
        }
        if (sent.status === 302 && isApproval(location)) {
          const cancel = chance(0.05);
          const back = await throughTestGateway(http, kind, location, cookie, cancel);
          if (cancel) return false;
          if (returnsTo(back?.answer) === release) {
            ledger.purchasePayments.viaGateway += 1;
            return true;
          }
          bump(ledger.purchasePayments.refused, `gateway return → ${returnsTo(back?.answer)}`);
          return false;
        }
        noteAppRefusal(ledger.purchasePayments.refused, "pay", sent.status, sent.text);
        return false;
      }),
    );
    const confirmed = outcomes.filter(Boolean).length;
    if (confirmed > 0) {
      bump(ledger.purchasesPaid, purchase.id, confirmed);
      purchase.paid = true;
      await http.send(kind, release, { cookie });
    }
  } finally {
    purchase.busy = false;
  }
}

const DELIVERIES = ROUTES.flatMap((r) => (r.delivery ? [r.delivery] : []));

/**
 * "Ship it" on a paid purchase: the request page for that lot, the request, then the quote
 * confirmed and paid (the page's form or the JSON call; from the deposit or through the TEST MODE
 * gateway). A job left unpaid (a cancelled checkout) is paid on a later visit.
 */
export async function shipIt(world: World) {
  const { http, ledger } = world;
  const kind = "ship it";
  const unpaid = world.jobs.filter((j) => !j.paid && !j.busy);
  const ready = world.won.filter((p) => p.paid && !p.shipping && !p.busy);
  if (unpaid.length > 0 && (ready.length === 0 || chance(0.3))) return payJob(world, pick(unpaid));
  if (ready.length === 0) return;
  const purchase = pick(ready);
  purchase.shipping = true;
  const { buyer } = purchase;
  await http.send(kind, `/purchases/${purchase.id}`, { cookie: buyer.cookie });
  await http.send(kind, `/service-orders/request?lot=${purchase.lotId}`, { cookie: buyer.cookie });
  const sent = await http.send(kind, "/service-orders/request", {
    cookie: buyer.cookie,
    form: { purchaseId: purchase.id, serviceType: "shipping", delivery: pick(DELIVERIES) },
  });
  const made = /^\/service-orders\/(\d+)$/.exec(returnsTo(sent));
  if (!made) {
    noteAppRefusal(ledger.transport.refused, "request", sent.status, sent.text);
    return;
  }
  ledger.transport.requested.push(made[1]);
  const job: TransportJob = {
    id: made[1],
    buyer,
    paid: false,
    claimedBy: null,
    completed: false,
    busy: false,
  };
  world.jobs.push(job);
  await payJob(world, job);
}

async function payJob(world: World, job: TransportJob) {
  const { http, ledger } = world;
  const kind = "ship it";
  const { cookie } = job.buyer;
  const path = `/service-orders/${job.id}`;
  const confirmed = () => {
    bump(ledger.transport.paid, job.id);
    job.paid = true;
  };
  job.busy = true;
  try {
    const page = await http.send(kind, path, { cookie });
    const price = hidden(page.text, "price");
    if (page.status !== 200 || price === null) return;
    if (chance(0.5)) return await raceJob(world, job, price);
    let approval = "";
    if (chance(0.5)) {
      // the buyer picks how to pay; the deposit is offered only when it covers the price
      const canUseDeposit = page.text.includes('name="source" value="deposit"');
      const source = canUseDeposit && chance(0.5) ? "deposit" : "gateway";
      const sent = await http.send(kind, path, { cookie, form: { intent: "pay", price, source } });
      if (sent.status === 303 && returnsTo(sent) === path) return confirmed();
      if (sent.status !== 302 || !isApproval(returnsTo(sent)))
        return noteAppRefusal(ledger.transport.refused, "pay", sent.status, sent.text);
      approval = returnsTo(sent);
    } else {
      const sent = await http.send(kind, `/api/service-orders/${job.id}/pay`, {
        cookie,
        json: { price },
      });
      if (sent.status !== 200)
        return noteAppRefusal(ledger.transport.refused, "pay (json)", sent.status, sent.text);
      const answer = JSON.parse(sent.text) as { paid: boolean; approvalUrl?: string };
      if (answer.paid) return confirmed();
      approval = answer.approvalUrl ?? "";
    }
    const cancel = chance(0.05);
    const back = await throughTestGateway(http, kind, approval, cookie, cancel);
    if (!cancel && returnsTo(back?.answer) === path) confirmed();
  } finally {
    job.busy = false;
  }
}

/**
 * The way a buyer can pay one transport order twice if settling is wrong (docs/decisions/3201):
 * 1–3 gateway checkouts started and approved, then all at once their returns, the JSON
 * "pay from deposit" and the form's. However many answers say paid, the database must hold one
 * charge (the payable checks); the order is paid iff some answer said so.
 */
async function raceJob(world: World, job: TransportJob, price: string) {
  const { http, ledger } = world;
  const kind = "ship it (race)";
  const { cookie } = job.buyer;
  const path = `/service-orders/${job.id}`;
  const returns: string[] = [];
  for (let i = 1 + rand(3); i > 0; i -= 1) {
    const sent = await http.send(kind, path, {
      cookie,
      form: { intent: "pay", price, source: "gateway" },
    });
    if (sent.status !== 302 || !isApproval(returnsTo(sent))) break;
    const back = await approveAtGateway(http, kind, returnsTo(sent));
    if (back) returns.push(back);
  }
  const each = 1 + rand(4);
  const answers = await Promise.all([
    ...returns.map(async (back) => {
      const sent = await http.send(kind, back, { cookie });
      return returnsTo(sent) === path;
    }),
    ...Array.from({ length: each }, async () => {
      const sent = await http.send(kind, `/api/service-orders/${job.id}/pay`, {
        cookie,
        json: { price },
      });
      return sent.status === 200 && (JSON.parse(sent.text) as { paid: boolean }).paid;
    }),
    ...Array.from({ length: each }, async () => {
      const sent = await http.send(kind, path, {
        cookie,
        form: { intent: "pay", price, source: "deposit" },
      });
      return sent.status === 303 && returnsTo(sent) === path;
    }),
  ]);
  const said = answers.filter(Boolean).length;
  // a race where nothing was paid (a deposit too small and no approved checkout) is paid later
  if (said === 0) return;
  ledger.transport.raced.set(job.id, said);
  job.paid = true;
}

/**
 * Providers on buyers' paid jobs: the board, a claim race among 2–4 approved carriers (one
 * wins), then the winner starts and completes it, over one or a few visits, and reads the
 * earnings statement.
 */
export async function haulJob(world: World) {
  const { http, ledger, cast } = world;
  const kind = "haul (provider)";
  const work = world.jobs.filter((j) => j.paid && !j.completed && !j.busy);
  if (work.length === 0) return;
  const job = pick(work);
  job.busy = true;
  try {
    if (!job.claimedBy) {
      const racers = [...cast.affiliates].sort(() => Math.random() - 0.5).slice(0, 2 + rand(3));
      await http.send(kind, "/service-orders", { cookie: racers[0].cookie });
      const results = await Promise.all(
        racers.map(async (carrier) => ({
          carrier,
          sent: await http.send(kind, `/api/service-orders/${job.id}/claim`, {
            cookie: carrier.cookie,
            method: "POST",
          }),
        })),
      );
      const winners = results.filter((r) => r.sent.status === 200).map((r) => r.carrier);
      ledger.claimWins.set(
        job.id,
        winners.map((w) => w.id),
      );
      job.claimedBy = winners[0] ?? null;
      if (!job.claimedBy || chance(0.3)) return;
    }
    const { cookie } = job.claimedBy;
    await http.send(kind, `/service-orders/${job.id}`, { cookie });
    // start answers 409 once the job is under way: then it is only waiting to be completed
    await http.send(kind, `/api/service-orders/${job.id}/start`, { cookie, method: "POST" });
    if (chance(0.3)) return;
    const done = await http.send(kind, `/api/service-orders/${job.id}/complete`, {
      cookie,
      method: "POST",
    });
    if (done.status === 200) {
      job.completed = true;
      ledger.transport.completed.push(job.id);
      await http.send(kind, "/service-orders/earnings", { cookie });
    }
  } finally {
    job.busy = false;
  }
}

const QUESTIONS = [
  "Is it still available?",
  "Can I see it on Saturday morning?",
  "Does it have a clean title?\nAny rust underneath?",
  "Would you take a little less if I pay today?",
  "How many keys come with it?",
];

/**
 * A buyer writes to a seller about a listing (the soak sellers' own listings, whose sellers can
 * answer, or the seeded ones), and now and then the seller replies in the thread. Each message
 * marks its thread for a combined notice e-mail (docs/decisions/3009).
 */
export async function message(world: World) {
  const { http, ledger, cast } = world;
  const kind = "messages";
  const own = [...world.ownListings.entries()].filter(([, ids]) => ids.length > 0);
  const fromSoakSeller = own.length > 0 && chance(0.7);
  const [sellerId, listingId] = fromSoakSeller
    ? (() => {
        const [seller, ids] = pick(own);
        return [seller, pick(ids)] as const;
      })()
    : [null, pick(world.catalog.listingIds)];
  const buyer = pick([...cast.bidders, ...cast.onlookers]);
  await http.send(kind, `/messages/new?listing=${listingId}`, { cookie: buyer.cookie });
  const sent = await http.send(kind, `/messages/new?listing=${listingId}`, {
    cookie: buyer.cookie,
    form: { body: pick(QUESTIONS) },
  });
  const thread = /^\/messages\/(\d+)$/.exec(sent.headers.get("location") ?? "")?.[1];
  if (sent.status !== 302 || !thread) {
    bump(ledger.messages.refused, `${sent.status}`);
    return;
  }
  ledger.messages.sent += 1;
  const seller = sellerId ? cast.sellers.find((s) => s.id === sellerId) : undefined;
  if (!seller || !chance(0.5)) return;
  await http.send(kind, "/messages", { cookie: seller.cookie });
  await http.send(kind, `/messages/${thread}`, { cookie: seller.cookie });
  const reply = await http.send(kind, `/messages/${thread}`, {
    cookie: seller.cookie,
    form: { intent: "send", body: "Yes, it is. Come by any weekday." },
  });
  if (reply.status === 302) ledger.messages.replies += 1;
  else bump(ledger.messages.refused, `reply ${reply.status}`);
}

/** A real 2×2 PNG (every kept image is decoded: record 3209). */
const SMALL_PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEElEQVQI12PQiuoCIgYIBQAcFgQ5ALm8KgAAAABJRU5ErkJggg==",
  "base64",
);

/** The small PNG with `text` in a tEXt chunk before its end: a real image unique to `text`. */
function pngCarrying(text: string) {
  const typed = Buffer.concat([Buffer.from("tEXt"), Buffer.from(`Comment\0${text}`, "latin1")]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(typed.length - 4);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  const end = SMALL_PNG.length - 12; // the IEND chunk
  return new Uint8Array(
    Buffer.concat([SMALL_PNG.subarray(0, end), length, typed, crc, SMALL_PNG.subarray(end)]),
  );
}
/** Applicants with a document on its way (one upload each at a time, so each is its own). */
const uploading = new Set<string>();

/**
 * An applicant sends an identity document through one machine (with the page's script: an
 * upload URL, one PUT, the check, the submission; or without: the form streamed through the
 * server), and the admin opens it through another: the very bytes sent must come back.
 */
export async function kycDocument(world: World) {
  const { http, cast, ledger } = world;
  const files = ledger.files;
  const kind = "kyc document";
  const applicant = pick(cast.applicants);
  if (uploading.has(applicant.id)) return;
  uploading.add(applicant.id);
  try {
    // a real PNG carrying text unique to this upload (nothing a content check refuses)
    const bytes = pngCarrying(`${applicant.id} ${Date.now()} ${Math.random()}`.repeat(20));
    const documentType = pick(["license", "passport", "state_id"]);
    const through = http.pickInstance();
    const as = { cookie: applicant.cookie, instance: through };
    const refused = (step: string, status: number) => {
      if (status === 429 || status === 0 || status >= 500)
        bump(files.refused, `KYC ${step} ${status}`);
      else files.missed.push(`KYC ${step} answered ${status} via ${through}`);
    };
    let objectPath: string;
    if (chance(0.5)) {
      const issued = await http.send(kind, "/api/objects/upload", {
        ...as,
        json: { size: bytes.length, contentType: "image/png" },
      });
      if (issued.status !== 200) return refused("upload URL", issued.status);
      const target = JSON.parse(issued.text) as {
        uploadURL: string;
        headers: Record<string, string>;
      };
      const put = await http.send(kind, target.uploadURL, {
        method: "PUT",
        body: { bytes, headers: target.headers },
        instance: through,
      });
      if (put.status !== 200) return refused("PUT", put.status);
      const confirmed = await http.send(kind, "/api/kyc/document-url", {
        ...as,
        method: "PUT",
        json: { documentURL: target.uploadURL },
      });
      if (confirmed.status !== 200) return refused("confirmation", confirmed.status);
      objectPath = (JSON.parse(confirmed.text) as { objectPath: string }).objectPath;
      const submitted = await http.send(kind, "/api/kyc/documents", {
        ...as,
        json: { documentType, documentUrl: objectPath },
      });
      if (submitted.status !== 201) return refused("submission", submitted.status);
    } else {
      const form = new FormData();
      form.set("documentType", documentType);
      form.set("file", new Blob([bytes], { type: "image/png" }), "id.png");
      const sent = await http.send(kind, "/kyc-verification", { ...as, multipart: form });
      if (sent.status !== 302) return refused("form", sent.status);
      const mine = await http.send(kind, "/api/kyc/documents", as);
      if (mine.status !== 200) return refused("document list", mine.status);
      objectPath = (JSON.parse(mine.text) as Array<{ documentUrl: string }>)[0].documentUrl;
    }
    files.kycStored += 1;
    // the admin reviews it on another machine: the short-lived link, then the file itself
    const reader = http.otherInstance(through);
    const view = await http.send(kind, objectPath, {
      cookie: cast.admin.cookie,
      instance: reader,
    });
    const link = view.headers.get("location");
    const file =
      view.status === 302 && link
        ? await http.send(kind, link, { instance: reader, bytes: true })
        : null;
    if (view.status === 0 || file?.status === 0)
      return void bump(files.refused, "KYC read: network error");
    if (file?.status === 200 && Buffer.from(file.bytes!).equals(Buffer.from(bytes)))
      files.kycRead += 1;
    else
      files.missed.push(
        `KYC ${objectPath} stored via ${through}: ${view.status} via ${reader}` +
          (file
            ? `, its link ${file.status}${file.status === 200 ? " (different bytes)" : ""}`
            : ""),
      );
  } finally {
    uploading.delete(applicant.id);
  }
}
