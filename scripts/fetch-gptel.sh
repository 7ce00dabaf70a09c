#!/usr/bin/env bash
# Fetch gptel and its dependencies from Debian's unstable suite into DEST
# (default: .deps), without touching the machine's own package state.
# Only packages not fetched before are downloaded, so a DEST shared by several
# checkouts gains the new ones and keeps what it has.
set -euo pipefail
dest=${1:-.deps}
# transient 0.13.8 requires compat, cond-let, llama and seq (built into Emacs).
pkgs="elpa-gptel elpa-compat elpa-transient elpa-cond-let elpa-llama"
missing=""
for p in $pkgs; do
  compgen -G "$dest/debs/${p}_*.deb" >/dev/null || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
# shellcheck source=scripts/private-apt.sh
. "$(dirname "$0")/private-apt.sh"
if ! private_apt_setup fetch-gptel unstable; then
  echo "fetch-gptel: set GPTEL_DIR to your own gptel" >&2
  exit 1
fi
mkdir -p "$dest/debs" "$dest/root"
# shellcheck disable=SC2086 # one word per package
(cd "$dest/debs" && apt-get "${apt_opts[@]}" -qq download $missing)
for p in $missing; do
  for deb in "$dest"/debs/"${p}"_*.deb; do
    dpkg -x "$deb" "$dest/root"
  done
done
echo "fetch-gptel: unpacked$missing into $dest/root"
