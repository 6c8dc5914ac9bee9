// The Privacy Policy's promise to buyers: a service provider who claims a transport order sees the
// vehicle and the places, never the buyer's e-mail address or phone (docs/decisions/3530). A
// carrier with a claimed job (and a delivered one) from a real buyer reads every route a
// signed-in non-admin can reach, the job's own pages and calls, and the e-mails it was sent;
// none may carry the buyer's e-mail, phone or last name.
import { beforeAll, describe, expect, it } from "vitest";
import { QueryTypes } from "sequelize";
import { sequelize } from "~/models/db.server";
import type { User } from "~/models/user.server";
import { resetEnvForTests } from "~/platform/env.server";
import { runOrderStep } from "~/services/affiliates/service-order-progress.server";
import { messageAboutOrder, sendMessageNotices } from "~/services/messages/messages.server";
import { recordOpeningBalance } from "~/services/deposits/deposits.server";
import { ROUTE_ACCESS } from "../support/route-access";
import { paramsFor, routeModuleFiles } from "../support/route-files";
import { createAffiliate } from "../support/affiliates";
import { createTestUser, requestAs } from "../support/auth";
import { addKentYard, paidSeattleShippingJob } from "../support/purchases";
import { call, type Handler } from "../support/routes";

type RouteModule = { loader?: Handler };

const BUYER_PHONE = "(206) 555-0147";
const BUYER_LAST_NAME = "Quillfeather";
let buyer: User;
let carrier: User;
let claimedId: string;
let deliveredId: string;
let purchaseId: string;
let lotId: string;
let threadId: string;

beforeAll(async () => {
  resetEnvForTests();
  const stamp = Date.now();
  buyer = await createTestUser({
    email: `blake.${BUYER_LAST_NAME.toLowerCase()}-${stamp}@bidyard.test`,
    firstName: "Blake",
    lastName: BUYER_LAST_NAME,
    phone: BUYER_PHONE,
    verified: true,
  });
  await recordOpeningBalance(buyer.id, "9000.00");
  await addKentYard();
  carrier = await createAffiliate();
  const claimed = await paidSeattleShippingJob(buyer, "98101", "SWEEP123");
  claimedId = claimed.orderId;
  purchaseId = claimed.purchaseId;
  lotId = claimed.lotId;
  await runOrderStep(carrier.id, claimedId, "claim");
  deliveredId = (await paidSeattleShippingJob(buyer, "Portland, OR", "SWEEP123")).orderId;
  await runOrderStep(carrier.id, deliveredId, "claim");
  await runOrderStep(carrier.id, deliveredId, "start");
  await runOrderStep(carrier.id, deliveredId, "complete");
  // the two write to each other about the claimed job (record 3535): the thread, the inbox and
  // the notice e-mail are swept too
  threadId = await messageAboutOrder(carrier.id, claimedId, "Pickup on Tuesday?");
  await messageAboutOrder(buyer.id, claimedId, "Tuesday is fine.");
  await sendMessageNotices();
});

async function orderLabel(id: string) {
  const [row] = await sequelize.query<{ vehicle_label: string }>(
    "SELECT vehicle_label FROM service_orders WHERE id = :id",
    { replacements: { id }, type: QueryTypes.SELECT },
  );
  return row?.vehicle_label;
}

/** The URL to read for a route file: the sample path, with this carrier's own ids where it has any. */
function pathFor(file: string, sample: string) {
  const own: Record<string, string> = {
    "service-orders.$id.tsx": `/service-orders/${claimedId}`,
    "service-orders.$id_.gate-pass.tsx": `/service-orders/${claimedId}/gate-pass`,
    "purchases.$id.tsx": `/purchases/${purchaseId}`,
    "purchases.$id_.release.tsx": `/purchases/${purchaseId}/release`,
    "auctions.$lotId.tsx": `/auctions/${lotId}`,
    "live.lots.$lotId.ts": `/live/lots/${lotId}`,
    "live.lots.$lotId_.state.ts": `/live/lots/${lotId}/state`,
    "messages.$threadId.tsx": `/messages/${threadId}`,
  };
  return own[file] ?? sample;
}

/** What a response carries, read as text (event streams only their first chunk). */
async function bodyOf(response: Response) {
  if (!response.body) return "";
  if ((response.headers.get("Content-Type") ?? "").includes("text/event-stream")) {
    const reader = response.body.getReader();
    const first = await reader.read();
    await reader.cancel();
    return new TextDecoder().decode(first.value ?? new Uint8Array());
  }
  return response.text();
}

function leaks(text: string) {
  const found: string[] = [];
  const lower = text.toLowerCase();
  if (lower.includes(buyer.email.toLowerCase())) found.push("e-mail");
  if (lower.includes(buyer.email.split("@")[0].toLowerCase())) found.push("e-mail's name");
  if (text.includes(BUYER_PHONE) || text.replace(/\D/g, "").includes("2065550147"))
    found.push("phone");
  if (text.includes(BUYER_LAST_NAME)) found.push("last name");
  return found;
}

describe("provider sees no buyer contact", () => {
  it("a carrier with a claimed job reads every route it can reach, the job's calls and its e-mails: no buyer e-mail, phone or last name", async () => {
    const modules = routeModuleFiles();
    const read: string[] = [];
    const leaked: string[] = [];
    const extra: Array<[string, string]> = [
      ["service-orders._index.tsx", "/service-orders?tab=mine"],
      ["service-orders._index.tsx", "/service-orders?tab=mine&status=completed"],
      ["service-orders.$id.tsx", `/service-orders/${deliveredId}`],
      ["api.affiliates.service-orders.ts", "/api/affiliates/service-orders"],
      ["api.service-orders.ts", "/api/service-orders"],
      ["notifications._index.tsx", "/notifications"],
    ];
    const visits: Array<[string, string]> = [
      ...Object.entries(ROUTE_ACCESS)
        .filter(([, route]) => route.access !== "admin")
        .map(([file, route]) => [file, pathFor(file, route.path)] as [string, string]),
      ...extra,
    ];
    for (const [file, path] of visits) {
      const entry = modules.find((route) => route.name === file);
      if (!entry) continue;
      const mod = (await import(/* @vite-ignore */ entry.file)) as RouteModule;
      if (!mod.loader) continue;
      const response = await call(
        mod.loader,
        await requestAs(carrier, path),
        paramsFor(file, path),
      );
      expect(response.status, `GET ${path}`).toBeLessThan(500);
      const found = leaks(await bodyOf(response));
      if (found.length) leaked.push(`GET ${path}: ${found.join(", ")}`);
      read.push(path);
    }
    // the root loader's data goes into every page the carrier opens
    const root = (await import("~/root")) as RouteModule;
    const rootAnswer = await call(
      root.loader!,
      await requestAs(carrier, `/service-orders/${claimedId}`),
    );
    leaked.push(...leaks(await bodyOf(rootAnswer)).map((what) => `root: ${what}`));

    const mails = await sequelize.query<{ subject: string; text_body: string; html_body: string }>(
      "SELECT subject, text_body, html_body FROM mail_outbox WHERE user_id = :id",
      { replacements: { id: carrier.id }, type: QueryTypes.SELECT },
    );
    for (const mail of mails) {
      const found = leaks(`${mail.subject}\n${mail.text_body}\n${mail.html_body}`);
      if (found.length) leaked.push(`e-mail "${mail.subject}": ${found.join(", ")}`);
    }

    // the sweep reached the job's own pages, not only their refusals
    expect(read).toContain(`/service-orders/${claimedId}`);
    expect(read).toContain(`/messages/${threadId}`);
    expect(mails.map((mail) => mail.subject)).toContain(
      `A new message from Blake about ${(await orderLabel(claimedId)) ?? ""}`,
    );
    expect(read.length).toBeGreaterThan(40);
    expect(leaked).toEqual([]);
  });

  it("the claimed job names the buyer by first name only; the buyer and the admins still see the e-mail", async () => {
    const orderPage = (await import("~/routes/service-orders.$id")) as RouteModule;
    const asCarrier = await call(
      orderPage.loader!,
      await requestAs(carrier, `/service-orders/${claimedId}`),
      { id: claimedId },
    );
    const carrierView = (await asCarrier.json()) as {
      details: { requester: { name: string; email: string | null } };
    };
    expect(carrierView.details.requester).toEqual({ name: "Blake", email: null });
    const asBuyer = await call(
      orderPage.loader!,
      await requestAs(buyer, `/service-orders/${claimedId}`),
      { id: claimedId },
    );
    const buyerView = (await asBuyer.json()) as typeof carrierView;
    expect(buyerView.details.requester.email).toBe(buyer.email);
  });
});
