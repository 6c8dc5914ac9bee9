import { describe, expect, it } from "vitest";
import {
  checkLayering,
  describeViolations,
  importsOf,
  isBrowserFile,
  readAppSources,
  type SourceFiles,
} from "../support/layering";

const files = (entries: Record<string, string>): SourceFiles => new Map(Object.entries(entries));

describe("the layering checker", () => {
  it("reads static, re-exported, dynamic and type-only imports", () => {
    const found = importsOf(
      "app/x.ts",
      [
        'import a from "~/a";',
        'import type { B } from "~/b.server";',
        'import { type C, type D } from "~/c.server";',
        'import { type E, f } from "~/e.server";',
        'export { g } from "./g";',
        'const h = await import("../h.server");',
        'type I = import("~/i.server").I;',
      ].join("\n"),
    );
    expect(found).toEqual([
      { specifier: "~/a", typeOnly: false },
      { specifier: "~/b.server", typeOnly: true },
      { specifier: "~/c.server", typeOnly: true },
      { specifier: "~/e.server", typeOnly: false },
      { specifier: "./g", typeOnly: false },
      { specifier: "../h.server", typeOnly: false },
      { specifier: "~/i.server", typeOnly: true },
    ]);
  });

  it("tells browser files from server files and route modules", () => {
    expect(isBrowserFile("app/components/site-header.tsx")).toBe(true);
    expect(isBrowserFile("app/services/auctions/schemas.ts")).toBe(true);
    expect(isBrowserFile("app/routes/admin._index/users-tab.tsx")).toBe(true);
    expect(isBrowserFile("app/routes/admin._index/route.tsx")).toBe(false);
    expect(isBrowserFile("app/routes/deposit.tsx")).toBe(false);
    expect(isBrowserFile("app/root.tsx")).toBe(false);
    expect(isBrowserFile("app/services/auctions/bidding.server.ts")).toBe(false);
    expect(isBrowserFile("app/models/lot.server.ts")).toBe(false);
  });

  it("fails on each kind of violation and passes the allowed imports", () => {
    const violations = checkLayering(
      files({
        "app/models/lot.server.ts": 'import { env } from "~/platform/env.server";',
        "app/models/user.server.ts": 'import { clock } from "~/platform/clock.server";',
        "app/models/bid.server.ts":
          'import { placeBid } from "../services/auctions/bidding.server";',
        "app/platform/env.server.ts": "export const env = {};",
        "app/platform/clock.server.ts": "export const clock = {};",
        "app/services/auctions/bidding.server.ts": 'import { Lot } from "~/models/lot.server";',
        "app/services/auctions/rules.ts": 'import { action } from "~/routes/api.bids";',
        "app/services/auctions/schemas.ts": 'import { placeBid } from "./bidding.server";',
        "app/services/auctions/types.ts": 'import type { Lot } from "~/models/lot.server";',
        "app/routes/api.bids.ts": 'import { Lot } from "~/models/lot.server";',
        "app/routes/deposit.tsx": 'import { placeBid } from "~/services/auctions/bidding.server";',
        "app/routes/admin._index/route.tsx":
          'import { placeBid } from "~/services/auctions/bidding.server";',
        "app/routes/admin._index/users-tab.tsx":
          'import { placeBid } from "~/services/auctions/bidding.server";',
        "app/components/bid-form.tsx": 'import { rules } from "~/services/auctions/rules";',
        "app/models/listing.server.ts": 'import { CURRENCIES } from "~/services/listings/fields";',
      }),
    );
    expect(violations.map(({ rule, file }) => `${rule} ${file}`)).toEqual([
      "browser-imports-server app/routes/admin._index/users-tab.tsx",
      "browser-imports-server app/services/auctions/schemas.ts",
      "layer-imports-route app/services/auctions/rules.ts",
      "model-imports-feature app/models/bid.server.ts",
      "model-imports-feature app/models/user.server.ts",
      "route-imports-model app/routes/api.bids.ts",
    ]);
    expect(describeViolations(violations)).toContain(
      "route-imports-model: a route imports app/models",
    );
  });
});

describe("app/ follows the layering rules", () => {
  it("has no route importing a model, no layer importing a route, no browser file importing .server", () => {
    const sources = readAppSources();
    expect(sources.size).toBeGreaterThan(100);
    const violations = checkLayering(sources);
    if (violations.length > 0) {
      console.error(
        `Layering violations (docs/architecture.md):\n${describeViolations(violations)}`,
      );
    }
    expect(describeViolations(violations)).toBe("");
  });
});
