import { describe, it } from "vitest";
import { sequelize } from "~/models/db.server";
import { rejects } from "../support/sql";

describe("database constraints", () => {
  it("refuse what the application must never write", async () => {
    await sequelize.query("insert into users (email) values ('one@bidyard.test')");
    await rejects("insert into users (email) values ('ONE@bidyard.test')");
    await rejects("insert into users (email, role) values ('two@bidyard.test', 'superuser')");
    await rejects("insert into users (email, deposit) values ('three@bidyard.test', -1)");
    await rejects("insert into users (email) values (null)");
    await rejects(
      "insert into sessions (id, user_id, expires_at) values (repeat('a', 64), gen_random_uuid(), now())",
    );
    await sequelize.query("insert into prelaunch_signups (email) values ('early@bidyard.test')");
    await rejects("insert into prelaunch_signups (email) values ('Early@BidYard.test')");
  });
});
