// The bench's ablation (docs/decisions/3401, 3621). The server's switches (server/ablation.ts): a
// server switches a piece off only when the bench's own variable is set too, never on Fly, and
// never for a piece it does not know; without the bench's variable, BIDYARD_ABLATE is not even
// read. The app's pieces are built, not switched: every edit bench/variants.ts makes to take one
// out still applies to the app as it is (an edit that stops applying fails here, not mid-bench).
import { describe, expect, it } from "vitest";
import { installAblation, SERVER_PIECES } from "../../server/ablation.ts";
import { PIECES } from "../../bench/ablation.ts";
import { APP_PIECE_EDITS, VARIANTS, editedSources } from "../../bench/variants.ts";

describe("bench ablation switches in server/", () => {
  it("are ignored without the bench's variable, as on every production server", () => {
    const off = installAblation({ BIDYARD_ABLATE: "log,metrics,headers", NODE_ENV: "production" });
    expect(off.size).toBe(0);
  });

  it("refuse to run on Fly even with the bench's variable", () => {
    expect(() =>
      installAblation({
        BIDYARD_BENCH_ABLATION: "1",
        BIDYARD_ABLATE: "log",
        FLY_APP_NAME: "bidyard",
      }),
    ).toThrow(/bench/);
  });

  it("refuse a piece they do not know, and the app's pieces (those are built)", () => {
    expect(() => installAblation({ BIDYARD_BENCH_ABLATION: "1", BIDYARD_ABLATE: "lgo" })).toThrow(
      /lgo/,
    );
    expect(() => installAblation({ BIDYARD_BENCH_ABLATION: "1", BIDYARD_ABLATE: "cards" })).toThrow(
      /cards/,
    );
  });

  it("switch off exactly the pieces named on a bench server", () => {
    const off = installAblation({
      BIDYARD_BENCH_ABLATION: "1",
      BIDYARD_ABLATE: "compression, log",
    });
    expect([...off].sort()).toEqual(["compression", "log"]);
  });
});

describe("bench variants of the app", () => {
  it("cover every piece of the table, each in server/, in app/ or both", () => {
    for (const piece of PIECES)
      expect((SERVER_PIECES as readonly string[]).includes(piece) || piece in APP_PIECE_EDITS).toBe(
        true,
      );
  });

  it("apply to the app as it is, each edit changing its file", () => {
    for (const [name, edits] of Object.entries(VARIANTS)) {
      const edited = editedSources(name, edits);
      expect(edited.size).toBeGreaterThan(0);
    }
    const cards = editedSources("no-cards", APP_PIECE_EDITS.cards);
    expect(cards.get("app/routes/auctions._index/route.tsx")).not.toMatch(/<LotCard\b/);
    expect(cards.get("app/routes/community-vehicles/results.tsx")).not.toMatch(
      /<ListingCardView\b/,
    );
  });

  it("fail naming the edit when the app changed under it", () => {
    expect(() =>
      editedSources("gone", [{ file: "app/root.tsx", from: "no such text in the root", to: "" }]),
    ).toThrow(/gone: app\/root\.tsx: no such text in the root found 0 times/);
  });
});
