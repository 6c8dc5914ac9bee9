// @vitest-environment happy-dom
import { createRemixStub } from "@remix-run/testing";
import { act, cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ShellDialogsProvider } from "~/components/shell-dialogs";
import { AUTH_LOADING_MAX_MS, SiteHeader } from "~/components/site-header";

function renderHeaderWithUnknownUser() {
  const Stub = createRemixStub([
    {
      path: "/",
      Component: () => (
        <ShellDialogsProvider>
          <SiteHeader user={undefined} />
        </ShellDialogsProvider>
      ),
    },
  ]);
  render(<Stub />);
}

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("header while the user is unknown (an error page without root data)", () => {
  it("shows a disabled Loading button, then the signed-in user from /api/auth/user", async () => {
    const fetch = vi.fn(async () =>
      Response.json({ id: "1", email: "a@b.co", firstName: "Ann", role: "admin" }),
    );
    vi.stubGlobal("fetch", fetch);
    renderHeaderWithUnknownUser();
    expect((screen.getByRole("button", { name: "Loading" }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    expect(await screen.findByText("Ann")).toBeTruthy();
    expect(screen.getByTestId("admin-badge")).toBeTruthy();
    expect(fetch).toHaveBeenCalledWith("/api/auth/user", expect.anything());
  });

  it("stops showing Loading after 3 seconds when nothing answers", async () => {
    vi.useFakeTimers();
    vi.stubGlobal(
      "fetch",
      vi.fn(() => new Promise(() => undefined)),
    );
    renderHeaderWithUnknownUser();
    expect(screen.getByRole("button", { name: "Loading" })).toBeTruthy();
    act(() => vi.advanceTimersByTime(AUTH_LOADING_MAX_MS + 10));
    expect(screen.queryByRole("button", { name: "Loading" })).toBeNull();
    expect(screen.getByRole("link", { name: "Sign In" })).toBeTruthy();
  });
});
