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
# A C/C++ toolchain for the SQLite driver (better-sqlite3) when no prebuilt binary can be
# fetched; node-gyp compiles against the image's own Node headers, downloading nothing.
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
ENV npm_config_nodedir=/usr/local \
    npm_config_update_notifier=false
WORKDIR /src
# The manifests first: the installed dependencies stay cached while only sources change.
COPY package.json package-lock.json .npmr[c] ./
COPY contract/package.json contract/
COPY server/package.json server/
COPY web/package.json web/
COPY e2e/package.json e2e/
COPY bench/package.json bench/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build
# What the runtime stage takes, gathered in /out: production dependencies only, and of
# onnxruntime's prebuilt libraries (every platform's, 290 MB) only this one's.
RUN npm prune --omit=dev --no-audit --no-fund \
 && find node_modules/onnxruntime-node/bin -mindepth 2 -maxdepth 2 ! -name linux \
      -exec rm -rf {} + \
 && find node_modules/onnxruntime-node/bin -mindepth 3 -maxdepth 3 \
      ! -name "$(node -p process.arch)" -exec rm -rf {} + \
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
