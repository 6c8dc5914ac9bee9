// @vitest-environment happy-dom
import { createRemixStub } from "@remix-run/testing";
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { NotificationBell } from "~/components/notification-bell";

afterEach(cleanup);

function renderBell(unreadCount: number) {
  const Stub = createRemixStub([
    { path: "/", Component: () => <NotificationBell unreadCount={unreadCount} /> },
  ]);
  render(<Stub initialEntries={["/"]} />);
}

describe("NotificationBell", () => {
  it("links to /notifications and shows the unread count", async () => {
    renderBell(3);
    const link = await screen.findByRole("link", { name: "Notifications, 3 unread" });
    expect(link.getAttribute("href")).toBe("/notifications");
    expect(link.textContent).toContain("3");
  });

  it("shows no count when everything is read, and caps large counts", async () => {
    renderBell(0);
    expect((await screen.findByRole("link")).textContent).toBe("");
    cleanup();
    renderBell(250);
    expect((await screen.findByRole("link")).textContent).toBe("99+");
  });
});
