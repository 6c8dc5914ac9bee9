// The Contact page: a message lands in the admins' inbox and in each admin's mail, at most five an
// hour from one address; bad input writes nothing (docs/decisions/3301).
import { QueryTypes } from "sequelize";
import { describe, expect, it } from "vitest";
import { sequelize } from "~/models/db.server";
import { RATE_LIMITS } from "~/platform/rate-limit.server";
import * as contact from "~/routes/contact";
import * as inbox from "~/routes/admin_.contact";
import { createTestUser, requestAs } from "../support/auth";

type User = Awaited<ReturnType<typeof createTestUser>>;
type Handler = (args: {
  request: Request;
  params: Record<string, never>;
  context: Record<string, never>;
}) => Promise<unknown>;

async function run(handler: Handler, request: Request) {
  try {
    const result = await handler({ request, params: {}, context: {} });
    if (result instanceof Response) return { status: result.status, result };
    return { status: (result as { init?: ResponseInit })?.init?.status ?? 200, result };
  } catch (error) {
    if (error instanceof Response) return { status: error.status, result: error };
    throw error;
  }
}

let address = 0;
/** A client address of its own, so each test starts with a fresh rate limit. */
const from = () => ({
  "fly-client-ip": `10.35.${Math.floor(address / 250)}.${(address++ % 250) + 1}`,
});

const body = (text: string) => ({
  name: "Dana Buyer",
  email: "dana@example.com",
  topic: "privacy",
  message: text,
});

const storedWith = (text: string) =>
  sequelize.query<{ id: string; user_id: string | null; topic: string; answered_at: Date | null }>(
    "SELECT id::text AS id, user_id, topic, answered_at FROM contact_messages WHERE body = :text",
    { replacements: { text }, type: QueryTypes.SELECT },
  );

const mailTo = (admin: User, text: string) =>
  sequelize.query<{ subject: string; text_body: string; topic: string }>(
    "SELECT subject, text_body, topic FROM mail_outbox WHERE user_id = :id AND text_body LIKE :like",
    { replacements: { id: admin.id, like: `%${text}%` }, type: QueryTypes.SELECT },
  );

describe("the Contact page", () => {
  it("keeps a message for the admins, mails each admin, and confirms", async () => {
    const admin = await createTestUser({ role: "admin" });
    const text = `Please delete my ID document ${Date.now()}`;
    const sent = await run(
      contact.action,
      await requestAs(null, "/contact", { form: body(text), headers: from() }),
    );
    expect(sent.status).toBe(302);
    expect((sent.result as Response).headers.get("Location")).toBe("/contact?sent=1");
    const [row] = await storedWith(text);
    expect(row).toMatchObject({ user_id: null, topic: "privacy", answered_at: null });
    const [mail] = await mailTo(admin, text);
    expect(mail.topic).toBe("messages");
    expect(mail.subject).toBe(
      "Contact: Privacy, or deleting my data or ID document from Dana Buyer",
    );
    expect(mail.text_body).toContain("dana@example.com");

    const page = await run(contact.loader, await requestAs(null, "/contact?sent=1"));
    expect(page.result).toMatchObject({ sent: true });
  });

  it("records who was signed in and prefills their name and e-mail", async () => {
    const user = await createTestUser({ firstName: "Rita", lastName: "Buyer" });
    const page = await run(contact.loader, await requestAs(user, "/contact"));
    expect(page.result).toMatchObject({
      defaults: { name: "Rita Buyer", email: user.email },
      sent: false,
    });
    const text = `Where is my refund ${Date.now()}`;
    await run(
      contact.action,
      await requestAs(user, "/contact", {
        form: { ...body(text), topic: "deposit" },
        headers: from(),
      }),
    );
    const [row] = await storedWith(text);
    expect(row).toMatchObject({ user_id: user.id, topic: "deposit" });
  });

  it("refuses bad input with 400 and the field's message, writing nothing", async () => {
    const text = `Bad input ${Date.now()}`;
    for (const [form, field, message] of [
      [{ ...body(text), email: "not-an-address" }, "email", "Enter a valid e-mail address."],
      [{ ...body(text), topic: "lawsuit" }, "topic", "Choose what your message is about."],
      [{ ...body(""), name: "Dana" }, "message", "Write your message."],
      [{ ...body(text), name: " " }, "name", "Enter your name."],
      [{ ...body("x".repeat(4001)) }, "message", "Keep it under 4000 characters."],
    ] as const) {
      const answer = await run(
        contact.action,
        await requestAs(null, "/contact", { form, headers: from() }),
      );
      expect(answer.status).toBe(400);
      const reply = (answer.result as { data: { error: Record<string, string[]> } }).data;
      expect(reply.error[field]).toEqual([message]);
    }
    expect(await storedWith(text)).toHaveLength(0);
  });

  it("takes five messages an hour from one address, then answers 429", async () => {
    const headers = from();
    const text = `Limit ${Date.now()}`;
    expect(RATE_LIMITS.contact.points).toBe(5);
    for (let i = 0; i < 5; i += 1) {
      const ok = await run(
        contact.action,
        await requestAs(null, "/contact", { form: body(`${text} ${i}`), headers }),
      );
      expect(ok.status).toBe(302);
    }
    const refused = await run(
      contact.action,
      await requestAs(null, "/contact", { form: body(`${text} 5`), headers }),
    );
    expect(refused.status).toBe(429);
    expect((refused.result as Response).headers.get("Retry-After")).toMatch(/^\d+$/);
    expect(await storedWith(`${text} 5`)).toHaveLength(0);
  });

  it("refuses a post from another site", async () => {
    const request = await requestAs(null, "/contact", { form: body("x"), headers: from() });
    request.headers.set("Origin", "https://evil.example");
    expect((await run(contact.action, request)).status).toBe(403);
  });
});

describe("the admins' contact inbox", () => {
  it("is for admins only; lists open messages; marking one answered takes it off, once", async () => {
    const admin = await createTestUser({ role: "admin" });
    const user = await createTestUser();
    const text = `Inbox ${Date.now()}`;
    await run(
      contact.action,
      await requestAs(null, "/contact", { form: body(text), headers: from() }),
    );
    const [row] = await storedWith(text);

    expect((await run(inbox.loader, await requestAs(user, "/admin/contact"))).status).toBe(403);
    const listed = await run(inbox.loader, await requestAs(admin, "/admin/contact"));
    const messages = (listed.result as { messages: Array<{ id: string; body: string }> }).messages;
    expect(messages.find((m) => m.id === row.id)?.body).toBe(text);

    const refused = await run(
      inbox.action,
      await requestAs(user, "/admin/contact", { form: { messageId: row.id } }),
    );
    expect(refused.status).toBe(403);
    const answered = await run(
      inbox.action,
      await requestAs(admin, "/admin/contact", { form: { messageId: row.id } }),
    );
    expect(answered.status).toBe(302);
    const [after] = await storedWith(text);
    expect(after.answered_at).not.toBeNull();
    const again = await run(
      inbox.action,
      await requestAs(admin, "/admin/contact", { form: { messageId: row.id } }),
    );
    expect(again.status).toBe(404);
    const relisted = await run(inbox.loader, await requestAs(admin, "/admin/contact"));
    expect(
      (relisted.result as { messages: Array<{ id: string }> }).messages.some(
        (m) => m.id === row.id,
      ),
    ).toBe(false);
  });
});
