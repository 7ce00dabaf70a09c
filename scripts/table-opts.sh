#!/bin/sh
# Regenerate src/shell/programs/opts.rs: sh scripts/table-opts.sh > src/shell/programs/opts.rs
g() { python3 "$(dirname "$0")"/table-opts.py "$@"; echo; }
echo '//! Option lists drafted from the programs'"'"' own `--help` by `scripts/table-opts.sh`, roles set'
echo '//! by hand there (see `table.rs` for the entries that use them). Edit freely.'
echo
echo 'use super::Role::*;'
echo 'use super::{flag, opt, rest, val, Opt, Role};'
echo
echo 'const D: Role = Data;'
echo
g RG rg '{"pre":"Argv","file":"Read","ignore-file":"Read","glob":"Pattern","iglob":"Pattern","regexp":"Pattern","pre-glob":"Pattern"}'
g FD fdfind '{"exec":"Argv+","exec-batch":"Argv+","ignore-file":"Read","exclude":"Pattern","and":"Pattern","search-path":"Walk","base-directory":"Chdir"}'
g GREP grep '{"regexp":"Pattern","file":"Read","include":"Pattern","exclude":"Pattern","exclude-dir":"Pattern","exclude-from":"Read","+":["flag(\"#\", \"\")"]}'
g LS ls '{"hide":"Pattern","ignore":"Pattern"}'
g CAT cat "{}"
