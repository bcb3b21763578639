# Tessera's container image (docs/deploy.md, "Container"). Two stages: the build stage has the
# toolchain and every dependency, and builds; the runtime stage gets the built server, the web
# app and the production dependencies only, and runs as a user of its own.
#
#   docker build -t tessera .                                          base made by
#     deploy/container/make-base-image.sh (no registry needed), or with a registry:
#   docker build --build-arg BASE_IMAGE=node:22-bookworm-slim -t tessera .
#
# Written for the classic builder as well as BuildKit (no heredocs, no cache mounts), so
# Debian's docker.io builds it as it is.

# Any Debian-based image with Node.js (20.19+, 22 or 24) and npm in /usr/local, as the official
# node images are laid out.
ARG BASE_IMAGE=tessera-base:bookworm-node20

FROM ${BASE_IMAGE} AS build
# On Node 20 the SQLite driver (better-sqlite3 12) is compiled at install, as no prebuilt binary
# can be fetched: a C/C++ toolchain, compiling against the image's own Node headers. From Node 22
# on the driver (better-sqlite3 13) has its binaries in its npm package: no toolchain.
RUN if [ "$(node -p 'process.versions.node.split(".")[0] < 22')" = true ]; then \
      apt-get update \
      && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends python3 make g++ \
      && rm -rf /var/lib/apt/lists/*; \
    fi
# npm's cache of the downloaded packages is removed after the install: it is not committed
# with the layer (hundreds of MB, as long again to commit).
ENV npm_config_nodedir=/usr/local \
    npm_config_cache=/tmp/npm-cache \
    npm_config_update_notifier=false
WORKDIR /src
# The manifests first: the installed dependencies stay cached while only sources change.
COPY package.json package-lock.json .npmr[c] ./
COPY contract/package.json contract/
COPY server/package.json server/
COPY web/package.json web/
COPY e2e/package.json e2e/
COPY bench/package.json bench/
# From Node 22 on, of the install scripts only esbuild's and sharp's (both check their prebuilt
# binaries) are run: the Node 20 driver's would compile SQLite (minutes) for nothing. Of
# onnxruntime's prebuilt libraries (every platform's, 290 MB) only this one's are kept.
RUN if [ "$(node -p 'process.versions.node.split(".")[0] < 22')" = true ]; then \
      npm ci --no-audit --no-fund; \
    else \
      npm ci --no-audit --no-fund --ignore-scripts && npm rebuild esbuild sharp; \
    fi \
 && find node_modules/onnxruntime-node/bin -mindepth 2 -maxdepth 2 ! -name linux \
      -exec rm -rf {} + \
 && find node_modules/onnxruntime-node/bin -mindepth 3 -maxdepth 3 \
      ! -name "$(node -p process.arch)" -exec rm -rf {} + \
 && rm -rf /tmp/npm-cache
COPY . .
# What the image runs, built as `npm run build` builds it, without that script's type checks of
# the web app and the e2e tests (the repository's own build does them; nothing here uses them).
RUN npx tsc -b \
 && npm run build:models -w server \
 && npm exec -w web -- vite build
# What the runtime stage takes, gathered in /out: production dependencies only.
RUN npm prune --omit=dev --no-audit --no-fund \
 && mkdir -p /out/contract /out/server /out/web \
 && cp -a package.json package-lock.json node_modules /out/ \
 && cp -a contract/package.json contract/dist /out/contract/ \
 && cp -a server/package.json server/dist server/themes /out/server/ \
 && if [ -d server/node_modules ]; then cp -a server/node_modules /out/server/; fi \
 && cp -a web/dist /out/web/ \
 && cp -a deploy/container/entrypoint.sh deploy/container/healthcheck.js /out/

FROM ${BASE_IMAGE}
# The server runs as tessera (uid 10001), which owns only /data; the code stays root's.
RUN groupadd --gid 10001 tessera \
 && useradd --uid 10001 --gid tessera --home-dir /data --no-create-home \
      --shell /usr/sbin/nologin tessera \
 && mkdir -p /data \
 && chown tessera:tessera /data \
 && chmod 750 /data
WORKDIR /app
COPY --from=build /out/ /app/
# Every setting of the README's table can be given with -e or an env file; NAME_FILE reads
# NAME from a file (secrets), see entrypoint.sh. npm (for `npm run users`) keeps its cache and
# logs out of the data.
ENV DATA_DIR=/data \
    HOST=0.0.0.0 \
    PORT=8080 \
    npm_config_cache=/tmp/npm-cache \
    npm_config_update_notifier=false
USER tessera
VOLUME /data
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 \
  CMD ["node", "/app/healthcheck.js"]
ENTRYPOINT ["/app/entrypoint.sh"]
CMD ["node", "server/dist/main.js"]
