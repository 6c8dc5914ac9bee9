// What a first visit costs the browser: JavaScript downloaded (gzipped) and Lighthouse's scores.
import { gzipSync } from "node:zlib";

const STATIC_IMPORT = /(?:import|export)\s*(?:[\w*{}\s,$]+from\s*)?["']([^"']+\.js)["']/g;

/**
 * Gzipped bytes of every script a first visit to `path` loads: the module scripts and
 * modulepreloads in the HTML and, recursively, what they import statically (lazy imports load
 * later, only when used, so they are not counted).
 */
export async function firstVisitJs(base: string, path: string, cookie?: string) {
  const response = await fetch(new URL(path, base), {
    headers: cookie ? { cookie } : {},
    redirect: "manual",
  });
  if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
  const html = await response.text();
  const queue = new Set<string>();
  for (const m of html.matchAll(/(?:src|href)="(\/build\/[^"]+\.js)"/g)) queue.add(m[1]);
  for (const m of html.matchAll(/import\s*(?:[\w*{}\s,$]+from\s*)?["'](\/build\/[^"']+\.js)["']/g))
    queue.add(m[1]);
  const seen = new Set<string>();
  let gz = 0;
  let raw = 0;
  while (queue.size > 0) {
    const [next] = queue;
    queue.delete(next);
    if (seen.has(next)) continue;
    seen.add(next);
    const url = new URL(next, base);
    const body = Buffer.from(await (await fetch(url)).arrayBuffer());
    raw += body.length;
    gz += gzipSync(body, { level: 9 }).length;
    for (const m of body.toString("utf8").matchAll(STATIC_IMPORT)) {
      const target = new URL(m[1], url);
      if (target.host === url.host && !seen.has(target.pathname)) queue.add(target.pathname);
    }
  }
  return { files: seen.size, kbGzip: Math.round(gz / 102.4) / 10, kbRaw: Math.round(raw / 1024) };
}

/** Lighthouse's mobile profile (its default) in the machine's Chromium. */
export async function lighthouseScores(
  pages: Array<{ url: string; cookie?: string }>,
  chromePath: string,
  /** the browser's pid, for the bench to stop it whatever happens */
  started: (pid: number | undefined) => void = () => undefined,
) {
  const { default: lighthouse } = await import("lighthouse");
  const chromeLauncher = await import("chrome-launcher");
  const chrome = await chromeLauncher.launch({
    chromePath,
    chromeFlags: [
      "--headless=new",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-dev-shm-usage",
      "--no-first-run",
    ],
    logLevel: "silent",
  });
  started(chrome.pid);
  try {
    const scores: Record<string, { performance: number; accessibility: number; metrics: string }> =
      {};
    for (const { url, cookie } of pages) {
      const result = await lighthouse(url, {
        port: chrome.port,
        ...(cookie ? { extraHeaders: { Cookie: cookie } } : {}),
        output: "json",
        logLevel: "error",
        onlyCategories: ["performance", "accessibility"],
      });
      if (result!.lhr.finalDisplayedUrl !== url)
        throw new Error(`Lighthouse on ${url} ended at ${result!.lhr.finalDisplayedUrl}`);
      const categories = result!.lhr.categories;
      scores[url] = {
        performance: Math.round((categories.performance.score ?? 0) * 100),
        accessibility: Math.round((categories.accessibility.score ?? 0) * 100),
        // what the performance score is made of, so a low one says where to look
        metrics: (
          [
            ["first-contentful-paint", "FCP"],
            ["largest-contentful-paint", "LCP"],
            ["total-blocking-time", "TBT"],
            ["cumulative-layout-shift", "CLS"],
            ["speed-index", "SI"],
          ] as const
        )
          .map(([id, name]) => {
            const value = result!.lhr.audits[id]?.numericValue;
            if (value === undefined) return `${name} –`;
            return id === "cumulative-layout-shift"
              ? `${name} ${value.toFixed(3)}`
              : `${name} ${Math.round(value)} ms`;
          })
          .join(", "),
      };
    }
    return scores;
  } finally {
    await chrome.kill();
  }
}
