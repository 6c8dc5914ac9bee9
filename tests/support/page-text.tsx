// A route's page rendered to text on the server, from loader data a test already has: what a
// buyer reads on the page, to set beside an e-mail for the same state (issue 42, finding 6). The
// root route carries the viewer's time zone, as the app's root loader does.
import type { ComponentType } from "react";
import { renderToString } from "react-dom/server";
import { Outlet } from "@remix-run/react";
import { createRemixStub } from "@remix-run/testing";
import { vi } from "vitest";

/** A loader's answer, whether it came wrapped in data() or plain. */
export function loaderBody<T>(result: T) {
  return ((result as { data?: unknown }).data ?? result) as T extends { data: infer D } ? D : T;
}

/** The text of `Component` at `url` with `data` as its loader data, whitespace folded. */
export function pageText(
  Component: ComponentType,
  data: unknown,
  { url, path, timeZone }: { url: string; path: string; timeZone: string },
) {
  const Stub = createRemixStub([
    {
      id: "root",
      path: "/",
      Component: Outlet,
      loader: () => null,
      children: [{ id: "page", path: path.replace(/^\//, ""), Component, loader: () => null }],
    },
  ]);
  // the stub's router uses a layout effect, which React warns about on the server: not the page's
  const error = console.error.bind(console);
  const quiet = vi.spyOn(console, "error").mockImplementation((...parts: unknown[]) => {
    if (!String(parts[0]).includes("useLayoutEffect does nothing on the server")) error(...parts);
  });
  let html: string;
  try {
    html = renderToString(
      <Stub
        initialEntries={[url]}
        hydrationData={{ loaderData: { root: { timeZone }, page: data } }}
      />,
    );
  } finally {
    quiet.mockRestore();
  }
  return (
    html
      .replace(/<(script|style)[\s\S]*?<\/\1>/g, " ")
      .replace(/<!--[\s\S]*?-->/g, "")
      // text inside a line stays one line ("Free until <time>…</time>, then"); blocks are apart
      .replace(/<\/?(?:a|abbr|b|code|em|small|span|strong|time)\b[^>]*>/g, "")
      .replace(/<[^>]+>/g, " ")
      .replace(/&amp;/g, "&")
      .replace(/&#x27;|&#39;/g, "'")
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&nbsp;|\u00a0/g, " ")
      .replace(/\s+/g, " ")
      .trim()
  );
}
