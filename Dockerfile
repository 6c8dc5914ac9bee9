# syntax=docker/dockerfile:1
# BidYard on Fly.io: build with every dependency, run with production ones only, as a non-root user.
# The same Node major as package.json engines and CI (docs/decisions/1301-node-20-and-oidc-provider-8.md).
ARG NODE_VERSION=20

FROM node:${NODE_VERSION}-bookworm-slim AS base
ENV NODE_ENV=production
WORKDIR /app

FROM base AS deps
COPY package.json package-lock.json ./
RUN npm install --include=dev --no-audit --no-fund

FROM base AS production-deps
COPY package.json package-lock.json ./
RUN npm install --omit=dev --no-audit --no-fund && npm cache clean --force

FROM deps AS build
COPY . .
RUN npm run build

FROM base AS runtime
RUN groupadd --system bidyard && useradd --system --gid bidyard --home /app bidyard
COPY --from=production-deps --chown=bidyard:bidyard /app/node_modules /app/node_modules
COPY --from=build --chown=bidyard:bidyard /app/build /app/build
COPY --from=build --chown=bidyard:bidyard /app/public /app/public
COPY --chown=bidyard:bidyard package.json tsconfig.json server.mjs ./
COPY --chown=bidyard:bidyard app ./app
COPY --chown=bidyard:bidyard db ./db
USER bidyard
ENV PORT=8080
EXPOSE 8080
CMD ["npm", "start"]
