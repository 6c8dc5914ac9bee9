// @vitest-environment happy-dom
// The shell shows an admin that maintenance mode is on, with the way to turn it off.
import { createRemixStub } from "@remix-run/testing";
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import App from "~/root";

const admin = {
  id: "1",
  email: "boss@bidyard.test",
  firstName: "Bo",
  lastName: null,
  role: "admin",
  accountType: "buyer",
};

function renderShell(maintenanceNotice: boolean) {
  const Stub = createRemixStub([
    {
      id: "root",
      path: "/",
      Component: App,
      loader: () => ({
        user: admin,
        toast: null,
        betaBannerClosed: true,
        betaBanner: { enabled: false, text: "" },
        unreadNotifications: 0,
        justSignedIn: false,
        onboardingCompleted: true,
        maintenanceNotice,
      }),
      children: [{ index: true, Component: () => <h1>Page</h1> }],
    },
  ]);
  render(<Stub />);
}

afterEach(cleanup);

describe("the maintenance banner", () => {
  it("is shown while the root loader says so, with a link to the admin settings", async () => {
    renderShell(true);
    const banner = await screen.findByRole("complementary", { name: "Maintenance mode" });
    expect(banner.textContent).toContain("Maintenance mode is on: only admins can use the site.");
    const link = screen.getByRole("link", { name: "Turn it off in the admin settings" });
    expect(link.getAttribute("href")).toBe("/admin?tab=settings");
  });

  it("is absent otherwise", async () => {
    renderShell(false);
    await screen.findByRole("heading", { name: "Page" });
    expect(screen.queryByRole("complementary", { name: "Maintenance mode" })).toBeNull();
  });
});
