#!/usr/bin/env bash
# Fetch gptel and its dependencies from Debian's unstable suite into DEST
# (default: .deps), without touching the machine's own package state.
# The mirror is read from the URIs: line of the machine's Debian sources file.
set -euo pipefail
dest=${1:-.deps}
pkgs="elpa-gptel elpa-compat elpa-transient elpa-cond-let"
if [ -f "$dest/.done" ]; then exit 0; fi
src=""
for f in /etc/apt/sources.list.d/debian.sources /etc/apt/sources.list.d/*.sources; do
  [ -f "$f" ] || continue
  src=$(awk '/^URIs:/ {print $2; exit}' "$f")
  [ -n "$src" ] && break
done
if [ -z "$src" ] && [ -f /etc/apt/sources.list ]; then
  src=$(awk '$1 == "deb" && $2 !~ /security/ {print $2; exit}' /etc/apt/sources.list)
fi
if [ -z "$src" ]; then
  echo "fetch-gptel: no Debian mirror found in /etc/apt sources; set GPTEL_DIR to your own gptel" >&2
  exit 1
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/etc/sources.list.d" "$work/etc/preferences.d" "$work/state/lists/partial" "$work/cache/archives/partial"
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
cat > "$work/etc/sources.list.d/unstable.sources" <<SRC
Types: deb
URIs: $src
Suites: unstable
Components: main
Signed-By: $keyring
SRC
: > "$work/etc/sources.list"
opts=(-o "Dir::Etc::SourceList=$work/etc/sources.list"
      -o "Dir::Etc::SourceParts=$work/etc/sources.list.d"
      -o "Dir::Etc::Preferences=$work/etc/preferences"
      -o "Dir::Etc::PreferencesParts=$work/etc/preferences.d"
      -o "Dir::State::Lists=$work/state/lists"
      -o "Dir::State::Status=/var/lib/dpkg/status"
      -o "Dir::Cache=$work/cache"
      -o "APT::Architecture=$(dpkg --print-architecture)"
      -o "Acquire::Languages=none")
echo "fetch-gptel: reading the unstable package lists (mirror from the machine's sources)"
apt-get "${opts[@]}" -qq update
mkdir -p "$dest/debs"
(cd "$dest/debs" && apt-get "${opts[@]}" -qq download $pkgs)
for deb in "$dest"/debs/*.deb; do
  dpkg -x "$deb" "$dest/root"
done
touch "$dest/.done"
echo "fetch-gptel: unpacked $(ls "$dest"/debs | tr '\n' ' ')into $dest/root"
