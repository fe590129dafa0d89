#!/bin/sh
# Install what dse needs from Debian's archive, only when something is
# missing (so a second run is quick and needs no network).  Runs as root, or
# through sudo when available.  `deps.sh build`: only what the Release
# build and `dse optimize` use (the quick start's main job); no argument:
# that and what the tests use.
set -eu
PKGS="build-essential cmake pkg-config git libyaml-dev libnlopt-dev \
libhiredis-dev libjansson-dev libxxhash-dev libssl-dev libmicrohttpd-dev"
if [ "${1:-}" != build ]; then
  PKGS="$PKGS libcmocka-dev zlib1g-dev redis-server stunnel4 clang curl \
chromium fonts-dejavu-core"
fi
missing=""
for p in $PKGS; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
    || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
echo "deps: installing$missing" >&2
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing >&2
