# shellcheck shell=bash
# Sourced by fetch-gptel.sh and fetch-emacs.sh: an apt configuration of our own, in a
# temporary directory, that reads the package lists of other Debian suites without
# touching the machine's own package state.  The mirror is read from the URIs: line of
# the machine's Debian sources file (or its sources.list), never written here.
#
#   private_apt_setup NAME SUITE...   reads the lists of SUITE... (component main);
#                                     then apt-get "${apt_opts[@]}" download PKG...
#                                     NAME prefixes the messages.

private_apt_mirror() {
  local f src=""
  for f in /etc/apt/sources.list.d/debian.sources /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    src=$(awk '/^URIs:/ && $2 !~ /security/ {print $2; exit}' "$f")
    [ -n "$src" ] && break
  done
  if [ -z "$src" ] && [ -f /etc/apt/sources.list ]; then
    src=$(awk '$1 == "deb" && $2 !~ /security/ {print $2; exit}' /etc/apt/sources.list)
  fi
  [ -n "$src" ] && printf '%s\n' "$src"
}

private_apt_setup() {
  local name=$1 src
  shift
  if ! src=$(private_apt_mirror); then
    echo "$name: no Debian mirror found in /etc/apt sources" >&2
    return 1
  fi
  apt_work=$(mktemp -d)
  # The caller's EXIT trap may add to this; the lists go with the work directory.
  trap 'rm -rf "$apt_work"' EXIT
  mkdir -p "$apt_work/etc/sources.list.d" "$apt_work/etc/preferences.d" \
           "$apt_work/state/lists/partial" "$apt_work/cache/archives/partial"
  cat > "$apt_work/etc/sources.list.d/private.sources" <<SRC
Types: deb
URIs: $src
Suites: $*
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
  : > "$apt_work/etc/sources.list"
  apt_opts=(-o "Dir::Etc::SourceList=$apt_work/etc/sources.list"
            -o "Dir::Etc::SourceParts=$apt_work/etc/sources.list.d"
            -o "Dir::Etc::Preferences=$apt_work/etc/preferences"
            -o "Dir::Etc::PreferencesParts=$apt_work/etc/preferences.d"
            -o "Dir::State::Lists=$apt_work/state/lists"
            -o "Dir::State::Status=/var/lib/dpkg/status"
            -o "Dir::Cache=$apt_work/cache"
            -o "APT::Architecture=$(dpkg --print-architecture)"
            -o "APT::Sandbox::User=root"
            -o "Acquire::Languages=none")
  echo "$name: reading the package lists of $* (mirror from the machine's sources)"
  apt-get "${apt_opts[@]}" -qq update
}
