#!/usr/bin/env bash
# Unpack Emacs 30.1 from Debian 12's backports suite into DEST (default: .deps),
# beside the system's Emacs and without touching the machine's own package state:
#   DEST/emacs-30.1/      the unpacked packages (dpkg -x), their .debs in debs/
#   DEST/bin/emacs-30.1   runs it: sets EMACSLOADPATH, EMACSDATA, EMACSDOC,
#                         EMACSPATH and LD_LIBRARY_PATH for the unpacked tree.
# The packages are emacs-nox, emacs-bin-common, emacs-common and the shared
# libraries that installing emacs-nox from backports would add to this machine
# (libtree-sitter0 where Debian 12's Emacs 28 is installed).  The mirror is read
# from the machine's Debian sources (scripts/private-apt.sh).
set -euo pipefail
dest=${1:-.deps}
version=30.1
root="$dest/emacs-$version"
launcher="$dest/bin/emacs-$version"
if [ -f "$root/.done" ] && [ -x "$launcher" ]; then exit 0; fi
# shellcheck source=scripts/private-apt.sh
. "$(dirname "$0")/private-apt.sh"
if ! private_apt_setup fetch-emacs bookworm bookworm-backports; then
  echo "fetch-emacs: set EMACS to the Emacs to test with" >&2
  exit 1
fi

# What installing Emacs from backports would install here, simulated against
# the machine's own dpkg status: keep Emacs and the libraries (not emacs-el,
# the Lisp sources, nor the packaging helpers).
plan=$(apt-get "${apt_opts[@]}" -s -qq install --no-install-recommends \
         emacs-nox/bookworm-backports emacs-bin-common/bookworm-backports \
         emacs-common/bookworm-backports emacs-el/bookworm-backports 2>&1 || true)
pkgs=$(awk '$1 == "Inst" {
              for (i = 3; i <= NF; i++) if ($i ~ /^\(/) { print $2 "=" substr($i, 2); break }
            }' <<<"$plan" | grep -E '^(emacs-nox|emacs-bin-common|emacs-common|lib[^=]*)=' || true)
for p in emacs-nox emacs-bin-common emacs-common; do
  grep -q "^$p=$(printf '1:%s' "$version")" <<<"$pkgs" || {
    echo "fetch-emacs: bookworm-backports offers no $p $version here:" >&2
    printf '%s\n' "$plan" >&2
    exit 1
  }
done

tmp="$root.tmp.$$"
trap 'rm -rf "$apt_work" "$tmp"' EXIT
rm -rf "$tmp"
mkdir -p "$tmp/debs"
# shellcheck disable=SC2086 # one word per package
echo "fetch-emacs: downloading" $pkgs
# shellcheck disable=SC2086 # one word per package
(cd "$tmp/debs" && apt-get "${apt_opts[@]}" -qq download $pkgs)
for deb in "$tmp"/debs/*.deb; do
  dpkg -x "$deb" "$tmp"
done

# Emacs finds its dump file beside the executable, named after it; the
# installed one is named by its fingerprint in the libexec directory.
triplet=$(basename "$(dirname "$(ls "$tmp"/usr/libexec/emacs/$version/*/emacs-*.pdmp)")")
pdmp=$(basename "$(ls "$tmp"/usr/libexec/emacs/$version/"$triplet"/emacs-*.pdmp)")
ln -sf "../libexec/emacs/$version/$triplet/$pdmp" "$tmp/usr/bin/emacs-nox.pdmp"

missing=$(LD_LIBRARY_PATH="$tmp/usr/lib/$triplet" ldd "$tmp/usr/bin/emacs-nox" | grep 'not found' || true)
if [ -n "$missing" ]; then
  echo "fetch-emacs: the Emacs $version binary still lacks shared libraries:" >&2
  printf '%s\n' "$missing" >&2
  exit 1
fi

# Another checkout sharing DEST may have finished first: keep its tree.
touch "$tmp/.done"
if [ -f "$root/.done" ]; then
  rm -rf "$tmp"
else
  rm -rf "$root"
  mv "$tmp" "$root"
fi

mkdir -p "$dest/bin"
cat > "$launcher.tmp.$$" <<EOF
#!/bin/sh
# Emacs $version unpacked by scripts/fetch-emacs.sh.
root=\$(cd "\$(dirname "\$0")/../emacs-$version" && pwd)
share=\$root/usr/share/emacs/$version
EMACSLOADPATH=\$share/site-lisp:\$root/usr/share/emacs/site-lisp:\$share/lisp
EMACSDATA=\$share/etc
EMACSDOC=\$share/etc
EMACSPATH=\$root/usr/libexec/emacs/$version/$triplet
LD_LIBRARY_PATH=\$root/usr/lib/$triplet\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}
export EMACSLOADPATH EMACSDATA EMACSDOC EMACSPATH LD_LIBRARY_PATH
exec "\$root/usr/bin/emacs-nox" "\$@"
EOF
chmod +x "$launcher.tmp.$$"
mv -f "$launcher.tmp.$$" "$launcher"

got=$("$launcher" -Q --batch --eval '(princ emacs-version)')
if [ "$got" != "$version" ]; then
  echo "fetch-emacs: $launcher printed \`$got', not $version" >&2
  exit 1
fi
echo "fetch-emacs: Emacs $version unpacked into $root; run it as $launcher"
