import { describe, expect, it } from "vitest";
import { setFavorite } from "~/services/listings/listings.server";
import { loader } from "~/routes/favorites";
import { createTestUser, requestAs } from "../support/auth";
import { createTestListing } from "../support/listings";

describe("/favorites", () => {
  it("shows the person's own favourites, newest first, without deleted listings", async () => {
    const seller = await createTestUser();
    const buyer = await createTestUser();
    const other = await createTestUser();
    const first = await createTestListing(seller, { title: "First saved" });
    const second = await createTestListing(seller, { title: "Second saved" });
    const gone = await createTestListing(seller, { title: "Deleted later" });
    const theirs = await createTestListing(seller, { title: "Someone else's favourite" });
    await setFavorite(buyer.id, first.id, true);
    await setFavorite(buyer.id, second.id, true);
    await setFavorite(buyer.id, gone.id, true);
    await setFavorite(other.id, theirs.id, true);
    await gone.update({ status: "deleted", deletedAt: new Date() });

    const page = (await loader({
      request: await requestAs(buyer, "/favorites"),
      params: {},
      context: {},
    })) as { favorites: { id: string; title: string; isFavorite: boolean }[] };
    expect(page.favorites.map((f) => f.title)).toEqual(["Second saved", "First saved"]);
    expect(page.favorites.every((f) => f.isFavorite)).toBe(true);

    await setFavorite(buyer.id, second.id, false);
    const after = (await loader({
      request: await requestAs(buyer, "/favorites"),
      params: {},
      context: {},
    })) as { favorites: { title: string }[] };
    expect(after.favorites.map((f) => f.title)).toEqual(["First saved"]);
  });
});
