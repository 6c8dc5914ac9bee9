import { test, type Page } from "@playwright/test";

export function jsEnabled() {
  return test.info().project.use.javaScriptEnabled !== false;
}

/** With JavaScript on, wait until Remix has hydrated before clicking; without, nothing to wait for. */
export async function ready(page: Page) {
  if (!jsEnabled()) return;
  await page.waitForFunction(
    () =>
      (window as unknown as { __remixRouter?: { state: { initialized: boolean } } }).__remixRouter
        ?.state.initialized === true,
  );
}
