// The production server's build (docs/decisions/3103): server/*.ts bundled into
// build/server/index.js (the web server) and build/server/jobs.js (the job worker,
// docs/decisions/3561), next to the Remix build it serves. Node 24 could run server/ as written,
// but stripping types loads a WebAssembly compiler into every process (about 17 MB of resident
// memory each: the primary and every worker); built once here, no process pays for it. Packages
// stay imports (node_modules is there at run time); each dynamic import stays its own chunk, so
// the primary still loads none of the worker's code (docs/decisions/1905).
import { build } from "esbuild";

await build({
  entryPoints: ["server/index.ts", "server/jobs.ts"],
  outdir: "build/server",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node24",
  packages: "external",
  chunkNames: "[name]-[hash]",
  logLevel: "warning",
});
console.log("built build/server/index.js and build/server/jobs.js");
