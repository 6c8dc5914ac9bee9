// @vitest-environment happy-dom
// The header's and footer's plain links (record 3545): a plain left click navigates in the page
// as <Link> would; a modified click, a link with a target, or another site's link is left to the
// browser.
import { createRemixStub } from "@remix-run/testing";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { usePlainLinkClicks } from "~/utils/plain-links";

afterEach(cleanup);

/** Whether the hook took each click; the outer handler then stops the test browser's own navigation. */
const taken: boolean[] = [];

function Links() {
  const onClick = usePlainLinkClicks();
  return (
    // the links are the controls; these elements catch their clicks, as the header and footer do
    // eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-static-element-interactions -- as said above
    <div
      onClick={(event) => {
        taken.push(event.defaultPrevented);
        event.preventDefault();
      }}
    >
      {/* eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-noninteractive-element-interactions -- as said above */}
      <nav onClick={onClick}>
        <a href="/auctions" data-discover="true">
          Auctions
        </a>
        <a href="/terms" data-discover="true" target="_blank">
          Terms in a new tab
        </a>
        <a href="https://example.com/" data-discover="true">
          Elsewhere
        </a>
      </nav>
    </div>
  );
}

function renderAt(path: string) {
  const Stub = createRemixStub([
    { path: "/", Component: Links },
    { path: "/auctions", Component: () => <h1>Live auctions page</h1> },
  ]);
  render(<Stub initialEntries={[path]} />);
}

describe("usePlainLinkClicks", () => {
  it("navigates in the page on a plain left click", async () => {
    renderAt("/");
    const link = await screen.findByRole("link", { name: "Auctions" });
    taken.length = 0;
    fireEvent(link, new MouseEvent("click", { bubbles: true, cancelable: true, button: 0 }));
    expect(taken).toEqual([true]);
    expect(await screen.findByRole("heading", { name: "Live auctions page" })).toBeTruthy();
  });

  it("leaves a modified click, a link with a target and another site's link to the browser", async () => {
    renderAt("/");
    const clicks = [
      { name: "Auctions", init: { ctrlKey: true } },
      { name: "Auctions", init: { button: 1 } },
      { name: "Terms in a new tab", init: {} },
      { name: "Elsewhere", init: {} },
    ];
    taken.length = 0;
    for (const { name, init } of clicks) {
      const event = new MouseEvent("click", {
        bubbles: true,
        cancelable: true,
        button: 0,
        ...init,
      });
      fireEvent(await screen.findByRole("link", { name }), event);
    }
    expect(taken).toEqual([false, false, false, false]);
    expect(screen.queryByRole("heading", { name: "Live auctions page" })).toBeNull();
  });
});
