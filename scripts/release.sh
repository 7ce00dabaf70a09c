#!/usr/bin/env bash
# Build the module for this machine in release mode, name it for the system and
# the version, and write its SHA-256 into the manifest the package ships.
#
#   scripts/release.sh [--target TRIPLE] [--out DIR] [--manifest FILE]
#       builds DIR/gptel-rust-hooks-module-VERSION-SYSTEM.SUFFIX (DIR: dist) and
#       sets SYSTEM's line in FILE (default lisp/gptel-rust-hooks-modules.sha256)
#   scripts/release.sh --merge [--manifest FILE] FRAGMENT...
#       sets the lines of manifests written by other runs of this script (one
#       per system, each beside its module, which is checked) in FILE
#
# SYSTEM is ARCH-OS as the package computes it from `system-configuration':
# x86_64-linux, aarch64-linux, x86_64-darwin, aarch64-darwin, x86_64-windows.
# The manifest, one line per system after its comment header:
#   # version: VERSION
#   # build-id: BUILD-ID        (scripts/build-id.sh: the Rust sources built)
#   SYSTEM SHA256 FILE
# It lists the modules of one version and build id: a run for another version
# or other sources starts it anew.  VERSION is the crate's, which must equal
# the package's `Version:' header.
set -euo pipefail
cd "$(dirname "$0")/.."

out=dist
manifest=lisp/gptel-rust-hooks-modules.sha256
target=""
merge=""
while [ $# -gt 0 ]; do
  case $1 in
    --target) target=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --manifest) manifest=$2; shift 2 ;;
    --merge) merge=1; shift ;;
    -h|--help) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    --*) echo "release: unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
done
if [ -z "$merge" ] && [ $# -gt 0 ]; then
  echo "release: unexpected argument $1 (fragments go with --merge)" >&2
  exit 2
fi
if [ -n "$merge" ] && [ $# -eq 0 ]; then
  echo "release: --merge needs the manifests to merge" >&2
  exit 2
fi

die() { echo "release: $*" >&2; exit 1; }

sha256() {
  if command -v sha256sum >/dev/null 2>&1; then sha256sum < "$1" | cut -c1-64
  elif command -v shasum >/dev/null 2>&1; then shasum -a 256 < "$1" | cut -c1-64
  else openssl dgst -sha256 -r < "$1" | cut -c1-64
  fi
}

version=$(sed -n 's/^version *= *"\([^"]*\)".*/\1/p' Cargo.toml | head -n 1)
header_version=$(sed -n 's/^;; Version: *\([^ ]*\).*/\1/p' lisp/gptel-rust-hooks.el | head -n 1)
[ -n "$version" ] || die "no version in Cargo.toml"
[ "$version" = "$header_version" ] \
  || die "Cargo.toml is version $version but lisp/gptel-rust-hooks.el says Version: $header_version"
const_version=$(sed -n 's/^(defconst gptel-rust-hooks-version "\([^"]*\)".*/\1/p' lisp/gptel-rust-hooks.el)
[ -z "$const_version" ] || [ "$const_version" = "$version" ] \
  || die "Cargo.toml is version $version but gptel-rust-hooks-version is $const_version"
build_id=$(bash scripts/build-id.sh .)

entries() { grep -v '^#' "$1" | awk 'NF' || true; }
field() { sed -n "s/^# $2: *//p" "$1" | head -n 1; }

# Write ENTRIES (SYSTEM SHA256 FILE lines, from stdin) into the manifest: they
# replace the lines of their systems; the others stay if the manifest is of
# this version and build id.
update_manifest() {
  local new keep="" tmp
  new=$(cat)
  if [ -f "$manifest" ]; then
    if [ "$(field "$manifest" version)" = "$version" ] \
         && [ "$(field "$manifest" build-id)" = "$build_id" ]; then
      keep=$(entries "$manifest")
    elif [ -n "$(entries "$manifest")" ]; then
      echo "release: $manifest listed modules of version $(field "$manifest" version)," \
           "build $(field "$manifest" build-id): starting it anew" >&2
    fi
  fi
  mkdir -p "$(dirname "$manifest")"
  tmp="$manifest.tmp.$$"
  {
    echo "# gptel-rust-hooks prebuilt modules, written by scripts/release.sh."
    echo "# One line per system: SYSTEM SHA256 FILE; the package checks a download against it."
    echo "# version: $version"
    echo "# build-id: $build_id"
    printf '%s\n%s\n' "$new" "$keep" | awk 'NF && !seen[$1]++' | LC_ALL=C sort
  } > "$tmp"
  mv -f "$tmp" "$manifest"
}

if [ -n "$merge" ]; then
  for frag in "$@"; do
    [ -f "$frag" ] || die "no manifest $frag"
    [ "$(field "$frag" version)" = "$version" ] \
      || die "$frag is of version $(field "$frag" version), this checkout $version"
    [ "$(field "$frag" build-id)" = "$build_id" ] \
      || die "$frag is of build $(field "$frag" build-id), these sources $build_id"
    entries "$frag" | while read -r system sum file; do
      f="$(dirname "$frag")/$file"
      [ -f "$f" ] || die "$frag lists $file, which is not beside it"
      [ "$(sha256 "$f")" = "$sum" ] || die "$f does not have the SHA-256 $frag gives it"
    done
  done
  for frag in "$@"; do entries "$frag"; done | update_manifest
  echo "release: $manifest lists $(entries "$manifest" | wc -l | tr -d ' ') modules of $version (build $build_id)"
  exit 0
fi

triple=${target:-$(rustc -vV | sed -n 's/^host: //p')}
arch=${triple%%-*}
case $arch in arm64) arch=aarch64 ;; esac
case $triple in
  *-linux-gnu*) os=linux; lib=libgptel_rust_hooks.so; suffix=so ;;
  *-apple-darwin) os=darwin; lib=libgptel_rust_hooks.dylib; suffix=dylib ;;
  *-windows-*) os=windows; lib=gptel_rust_hooks.dll; suffix=dll ;;
  *) die "no release for $triple (Linux with glibc, macOS and Windows only)" ;;
esac
system=$arch-$os
name=gptel-rust-hooks-module-$version-$system.$suffix

echo "release: building $name ($triple, build $build_id)"
cargo build --release --locked ${target:+--target "$target"}
built=${CARGO_TARGET_DIR:-target}/${target:+$target/}release/$lib
[ -f "$built" ] || die "cargo built no $built"

mkdir -p "$out"
cp "$built" "$out/$name.tmp.$$"
mv -f "$out/$name.tmp.$$" "$out/$name"
sum=$(sha256 "$out/$name")
echo "$system $sum $name" | update_manifest
echo "release: $out/$name"
echo "release: $manifest: $system $sum $name"
