#!/usr/bin/env bash
# Print the build id of the Rust sources in ROOT (default: the checkout holding
# this script): the first 16 hex digits of the SHA-256 of the lines
#   SHA256-OF-FILE  RELATIVE-PATH
# (sha256sum's format) of Cargo.toml, Cargo.lock, build.rs if present and every
# src/**/*.rs, in bytewise order of their paths, each file read with its CR
# bytes removed (so a checkout with CRLF line ends has the same id).  The
# module reports the id it was built from; the package computes it over the
# sources beside it the same way.
set -euo pipefail
root=${1:-"$(dirname "$0")/.."}
cd "$root"

sha256() {
  if command -v sha256sum >/dev/null 2>&1; then sha256sum | cut -c1-64
  elif command -v shasum >/dev/null 2>&1; then shasum -a 256 | cut -c1-64
  else openssl dgst -sha256 -r | cut -c1-64
  fi
}

if ! [ -f Cargo.toml ] || ! [ -f Cargo.lock ] || ! [ -d src ]; then
  echo "build-id: no Cargo.toml, Cargo.lock and src/ in $(pwd)" >&2
  exit 1
fi
{
  printf '%s\n' Cargo.toml Cargo.lock
  [ -f build.rs ] && printf '%s\n' build.rs
  find src -type f -name '*.rs'
} | LC_ALL=C sort | while IFS= read -r f; do
  printf '%s  %s\n' "$(tr -d '\r' < "$f" | sha256)" "$f"
done | sha256 | cut -c1-16
