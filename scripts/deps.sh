#!/bin/sh
# Install what dse needs from Debian's archive, only when something is
# missing (so a second run is quick and needs no network).  Runs as root, or
# through sudo when available.
set -eu
PKGS="build-essential cmake pkg-config git libyaml-dev libnlopt-dev \
libhiredis-dev libcmocka-dev libjansson-dev libxxhash-dev libplplot-dev \
libssl-dev libmicrohttpd-dev zlib1g-dev redis-server stunnel4 clang curl chromium \
fonts-dejavu-core"
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
