// The registration form's submission: checked on the server (400 with field messages, nothing
// started), and the names it carries reach the account the first sign-in creates.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalIssuer, type LocalIssuer } from "../../scripts/local-issuer";
import { User } from "~/models/user.server";
import { loader as callbackLoader } from "~/routes/api.callback";
import { loader as loginLoader } from "~/routes/api.login";
import { action as registerAction } from "~/routes/register";
import { resetEnvForTests } from "~/platform/env.server";
import { answerOf } from "../support/http";
import { throughIssuer } from "../support/oidc";
import { args } from "../support/routes";

const APP = "http://localhost:3000";
let issuer: LocalIssuer;

beforeAll(async () => {
  issuer = await startLocalIssuer({ redirectUris: [`${APP}/api/callback`] });
  process.env.LOCAL_OIDC_PORT = String(issuer.port);
  resetEnvForTests();
});
afterAll(async () => {
  await issuer?.stop();
});

const cookiePairs = (response: Response) =>
  response.headers.getSetCookie().map((c) => c.split(";")[0]);

/** From the app's redirect to the issuer, through its form (names left empty), to the callback. */
async function signInAtIssuer(login: Response, email: string) {
  const appCookies = cookiePairs(login).join("; ");
  const callbackUrl = await throughIssuer(issuer, login.headers.get("location")!, {
    email,
    firstName: "",
    lastName: "",
  });
  return new Request(callbackUrl, { headers: { cookie: appCookies } });
}

type Refused = {
  data: { errors: Record<string, string>; values: Record<string, string> };
  init: ResponseInit;
};

describe("the registration form's submission", () => {
  it("sent empty, is refused with 400 and a message per field, and starts no sign-in", async () => {
    const answer = (await answerOf(
      loginLoader(args(new Request(`${APP}/api/login?from=register&accountType=buyer`))),
    )) as Refused;
    expect(answer).not.toBeInstanceOf(Response);
    expect(answer.init.status).toBe(400);
    expect(answer.data.errors).toEqual({
      firstName: "Enter your first name.",
      lastName: "Enter your last name.",
      login_hint: "Enter your e-mail address.",
      phone: "Enter your phone number.",
      terms: "Agree to the Terms of Service and Privacy Policy.",
    });
  });

  it("with a bad e-mail, keeps what was typed and says what is wrong", async () => {
    const query = new URLSearchParams({
      from: "register",
      accountType: "affiliate",
      firstName: "Pat",
      lastName: "   ",
      login_hint: "not-an-address",
      phone: "713-555-0100",
      terms: "on",
    });
    const answer = (await answerOf(
      loginLoader(args(new Request(`${APP}/api/login?${query}`))),
    )) as Refused;
    expect(answer.init.status).toBe(400);
    expect(answer.data.errors).toEqual({
      lastName: "Enter your last name.",
      login_hint: "Enter a valid e-mail address.",
    });
    expect(answer.data.values).toMatchObject({
      accountType: "affiliate",
      firstName: "Pat",
      login_hint: "not-an-address",
    });
  });

  it("filled in, goes to sign in, and the new account gets the names typed", async () => {
    const email = `registered-${Date.now()}@example.com`;
    const query = new URLSearchParams({
      from: "register",
      accountType: "buyer",
      firstName: " Rita ",
      lastName: "Registered",
      login_hint: email,
      phone: "713-555-0100",
      terms: "on",
    });
    const login = (await answerOf(
      loginLoader(args(new Request(`${APP}/api/login?${query}`))),
    )) as Response;
    expect(login.status).toBe(302);
    expect(new URL(login.headers.get("location")!).searchParams.get("login_hint")).toBe(email);
    // Neither the names nor anything else of the form travels to the issuer.
    expect(login.headers.get("location")).not.toContain("Rita");
    expect(login.headers.get("location")).not.toContain("555");

    const callback = await answerOf(callbackLoader(args(await signInAtIssuer(login, email))));
    expect((callback as Response).status).toBe(302);
    const user = await User.findOne({ where: { email } });
    expect(user).toMatchObject({
      firstName: "Rita",
      lastName: "Registered",
      accountType: "buyer",
      phone: "713-555-0100",
    });
  });

  it("a plain Sign In creates an account without names, as before", async () => {
    const email = `plain-${Date.now()}@example.com`;
    const login = (await answerOf(
      loginLoader(args(new Request(`${APP}/api/login?login_hint=${email}`))),
    )) as Response;
    expect(login.status).toBe(302);
    await answerOf(callbackLoader(args(await signInAtIssuer(login, email))));
    const user = await User.findOne({ where: { email } });
    expect(user).toMatchObject({ firstName: null, lastName: null, phone: null });
  });
});

describe("the registration form posted (docs/decisions/3304)", () => {
  const post = (form: Record<string, string>, origin = APP) =>
    new Request(`${APP}/register`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin },
      body: new URLSearchParams(form),
    });
  const filled = (email: string) => ({
    from: "register",
    accountType: "affiliate",
    firstName: "Pat",
    lastName: "Provider",
    login_hint: email,
    phone: "+1 (713) 555-0199",
    terms: "on",
  });

  it("keeps the phone number on the account the sign-in creates, and nothing in a URL", async () => {
    const email = `posted-${Date.now()}@example.com`;
    const login = (await answerOf(registerAction(args(post(filled(email)))))) as Response;
    expect(login.status).toBe(302);
    expect(login.headers.get("location")).not.toContain("555");
    await answerOf(callbackLoader(args(await signInAtIssuer(login, email))));
    const user = await User.findOne({ where: { email } });
    expect(user).toMatchObject({
      firstName: "Pat",
      accountType: "affiliate",
      phone: "+1 (713) 555-0199",
    });
  });

  it("a phone number that is not one is refused with 400 and kept to correct", async () => {
    const email = `bad-phone-${Date.now()}@example.com`;
    for (const [phone, message] of [
      ["call me", "Enter a phone number: digits, spaces, + ( ) - and . only."],
      ["12345", "Enter a phone number of 7 to 15 digits, like 713-555-0100."],
    ]) {
      const answer = (await answerOf(
        registerAction(args(post({ ...filled(email), phone }))),
      )) as Refused;
      expect(answer.init.status).toBe(400);
      expect(answer.data.errors).toEqual({ phone: message });
      expect(answer.data.values).toMatchObject({ phone, login_hint: email });
    }
    expect(await User.findOne({ where: { email } })).toBeNull();
  });

  it("from another site is refused", async () => {
    const answer = await answerOf(
      registerAction(args(post(filled("x@example.com"), "https://evil.example"))),
    );
    expect((answer as Response).status).toBe(403);
  });
});
