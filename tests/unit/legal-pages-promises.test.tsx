// @vitest-environment happy-dom
// The Terms and the Privacy Policy, rendered: every promise of the list reads on its page with
// its figures and links filled in (docs/decisions/3522), and an error boundary reads in words
// whatever the thrown answer carried (docs/decisions/3521).
import { data } from "@remix-run/node";
import { createRemixStub } from "@remix-run/testing";
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { RouteErrorBoundary } from "~/components/error-page";
import { PROMISES, type LegalPage, type PromiseId } from "~/services/legal/promises";
import PrivacyPage from "~/routes/privacy";
import TermsPage from "~/routes/terms";

afterEach(cleanup);

const TERMS_DATA = {
  penalties: {
    lateFeeCents: 5000,
    storageFreeDays: 3,
    storagePerDayCents: 2500,
    defaultGraceDays: 2,
    defaultFeeCents: 25000,
  },
  dueBusinessDays: 3,
  minimumDeposit: "$400.00",
  maximumDeposit: "$100,000.00",
  platformFeePercent: 10,
};

/** What each `{name}` mark reads as on the page, for the data above. */
const FILLED: Record<string, string> = {
  identityVerification: "identity verification",
  minimumDeposit: "$400.00",
  maximumDeposit: "$100,000.00",
  deposit: "deposit",
  dueBusinessDays: "3",
  days: "days",
  platformFeePercent: "10",
  accountPage: "account page",
};

const squash = (text: string) => text.replace(/\s+/g, " ").trim();

async function pageText(page: LegalPage) {
  const Stub = createRemixStub([
    page === "terms"
      ? { path: "/terms", Component: TermsPage, loader: () => TERMS_DATA }
      : { path: "/privacy", Component: PrivacyPage },
  ]);
  render(<Stub initialEntries={[`/${page}`]} />);
  await screen.findByRole("heading", { level: 1 });
  return squash(document.body.textContent ?? "");
}

describe("the legal pages render each promise of the list", () => {
  for (const page of ["terms", "privacy"] as const) {
    it(`${page}: every promise reads whole, its marks filled`, async () => {
      const text = await pageText(page);
      const own = (Object.keys(PROMISES) as PromiseId[]).filter((id) => PROMISES[id].page === page);
      expect(own.length).toBeGreaterThan(5);
      for (const id of own) {
        const words = PROMISES[id].text.replace(/\{(\w+)\}/g, (_, name: string) => FILLED[name]);
        expect(text, id).toContain(squash(words));
      }
      expect(text).not.toMatch(/\{\w+\}/);
    });
  }
});

describe("a route's error boundary in words", () => {
  async function boundaryText(thrown: () => never) {
    const Stub = createRemixStub([
      {
        path: "/",
        Component: () => null,
        ErrorBoundary: RouteErrorBoundary,
        loader: () => thrown(),
      },
    ]);
    render(<Stub />);
    await screen.findByRole("heading", { level: 1 });
    return squash(document.body.textContent ?? "");
  }

  it("a JSON 429 (the shape every limit answers): the wait in words, never [object Object]", async () => {
    const text = await boundaryText(() => {
      throw Response.json(
        { error: "Too many", message: "Too many requests.", retryAfter: 3540 },
        { status: 429 },
      );
    });
    expect(text).toContain("429Too many requests");
    expect(text).toContain(
      "You did this too many times in a short while. You can try again in about 59 minutes.",
    );
    expect(text).not.toContain("[object");
  });

  it("a text 409 and an object without a sentence read as words", async () => {
    expect(
      await boundaryText(() => {
        throw new Response("This lot has closed.", { status: 409 });
      }),
    ).toContain("This lot has closed.");
    cleanup();
    const text = await boundaryText(() => {
      throw Response.json({ code: 7 }, { status: 422 });
    });
    expect(text).toContain("422Something is not right");
    expect(text).toContain("The request could not be completed.");
  });

  it("data() thrown with an object reads its message", async () => {
    const text = await boundaryText(() => {
      throw data({ message: "That invoice is already paid." }, { status: 409 });
    });
    expect(text).toContain("409That could not be done");
    expect(text).toContain("That invoice is already paid.");
    expect(text).not.toContain("[object");
  });

  it("a 5xx never repeats its body", async () => {
    const text = await boundaryText(() => {
      throw new Response("pg: connection refused at 10.0.0.3", { status: 502 });
    });
    expect(text).toContain("Something went wrong");
    expect(text).not.toContain("10.0.0.3");
  });
});
