import { describe, expect, it } from "vitest";
import { User } from "~/models/user.server";
import { runSeeds } from "../../db/seeds/index";

describe("demo seed", () => {
  it("loads the demo accounts and changes nothing on a second run", async () => {
    await runSeeds([], () => undefined);
    const first = await User.findAll({ order: [["email", "ASC"]], raw: true });
    await runSeeds([], () => undefined);
    const second = await User.findAll({ order: [["email", "ASC"]], raw: true });
    expect(second).toEqual(first);
    const byEmail = Object.fromEntries(first.map((user) => [user.email, user]));
    expect(byEmail["admin@bidyard.test"].role).toBe("admin");
    expect(byEmail["buyer@bidyard.test"]).toMatchObject({ verified: true, deposit: "2500.00" });
    expect(byEmail["newbuyer@bidyard.test"]).toMatchObject({ verified: false, deposit: "0.00" });
    expect(Object.keys(byEmail)).toEqual(
      expect.arrayContaining(["shipper@bidyard.test", "applicant@bidyard.test"]),
    );
  });
});
