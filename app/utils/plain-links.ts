import { useLocation, useNavigate } from "@remix-run/react";
import { useCallback, type MouseEvent } from "react";

/**
 * One click handler for a block of plain links (the footer's): each link is an `<a href
 * data-discover>` rather than a `<Link>`, and a click on one navigates in the page as `<Link>`
 * would (a plain left click on a same-site link without a target; the same URL replaces rather
 * than pushes). Without JavaScript they are the same links. `data-discover` lets Remix find their
 * routes ahead of the click as it does for `<Link>`. A `<Link>` costs its own hooks on every
 * render; a dozen of them were a visible share of every page's render (record 3545).
 */
export function usePlainLinkClicks() {
  const navigate = useNavigate();
  const { pathname, search, hash } = useLocation();
  return useCallback(
    (event: MouseEvent<HTMLElement>) => {
      if (
        event.defaultPrevented ||
        event.button !== 0 ||
        event.metaKey ||
        event.altKey ||
        event.ctrlKey ||
        event.shiftKey
      )
        return;
      const link = (event.target as Element).closest("a[data-discover]");
      if (!link || !event.currentTarget.contains(link)) return;
      const target = link.getAttribute("target");
      if ((target && target !== "_self") || link.hasAttribute("download")) return;
      const href = link.getAttribute("href");
      if (!href || !href.startsWith("/") || href.startsWith("//")) return;
      event.preventDefault();
      navigate(href, { replace: href === `${pathname}${search}${hash}` });
    },
    [navigate, pathname, search, hash],
  );
}
