// The reference app's server: Express, compression, the fingerprinted assets and Remix's own
// Express handler, as a small Remix app is served (remix-serve's parts without its access log, and
// without asking the filesystem about every page's path: public/ is looked up in a set made at
// start, as BidYard's server does, record 1102).
import { readdirSync } from "node:fs";
import path from "node:path";
import url from "node:url";
import { createRequestHandler } from "@remix-run/express";
import compression from "compression";
import express from "express";

// Node's own fetch and Request/Response, as BidYard's server uses (docs/decisions/3101-node-24.md).
const here = path.dirname(url.fileURLToPath(import.meta.url));
const build = await import(url.pathToFileURL(path.join(here, "build/index.js")).href);

const app = express();
app.disable("x-powered-by");
app.use(compression());
app.use(
  "/build",
  express.static(path.join(here, "public/build"), { immutable: true, maxAge: "1y" }),
);
const publicFiles = new Set(
  readdirSync(path.join(here, "public"), { withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => `/${entry.name}`),
);
const publicStatic = express.static(path.join(here, "public"), { maxAge: "1h", index: false });
app.use((req, res, next) => (publicFiles.has(req.path) ? publicStatic(req, res, next) : next()));
app.all("*", createRequestHandler({ build, mode: "production" }));

const port = Number(process.env.PORT ?? 3000);
const server = app.listen(port, () => console.log(`reference listening on ${port}`));
process.on("SIGTERM", () => {
  server.close(() => process.exit(0));
  server.closeIdleConnections();
  setTimeout(() => process.exit(0), 2_000).unref();
});
