#!/usr/bin/env python3
"""Extract the example command lines of tldr-pages, placeholders filled plainly.

Usage: scripts/tldr-lines.py GIT_DIR [OUT]

GIT_DIR is a clone (bare or not) of tldr-pages/tldr. Every backtick example line of
the English pages under pages/common and pages/linux at HEAD is written to OUT
(default: stdout), one line each, as `PAGE<TAB>LINE`, in page order. Placeholders:
- `{{[-r|--recursive]}}` (an option with its short and long spelling) -> `--recursive`
  (the long one when there is one, else the first);
- `{{path/to/file1 path/to/file2 ...}}` -> `path/to/file1 path/to/file2` (the `...`
  that says "and more" is dropped);
- `{{source.tar[.gz|.bz2]}}` (a choice inside a placeholder) -> `source.tar.gz`;
- anything else -> its text as written, braces removed.
Lines are used by `tests/measure_corpus.rs` (`make measure`); nothing here runs them.
"""

import re
import subprocess
import sys

DIRS = ("pages/common", "pages/linux")

CHOICE = re.compile(r"\[([^\[\]|]*(?:\|[^\[\]|]*)+)\]")


def choose(alternatives):
    """The long option when one alternative is one, else the first."""
    longs = [a for a in alternatives if a.startswith("--")]
    return longs[0] if longs else alternatives[0]


def fill(text):
    """One placeholder's text, filled plainly."""
    text = CHOICE.sub(lambda m: choose(m.group(1).split("|")), text)
    words = [w for w in text.split(" ") if w not in ("...", "…")]
    text = " ".join(words)
    return text.replace("...", "").strip() if text.strip() != "..." else ""


def fill_line(line):
    out = []
    i = 0
    while i < len(line):
        start = line.find("{{", i)
        if start < 0:
            out.append(line[i:])
            break
        end = line.find("}}", start + 2)
        if end < 0:
            out.append(line[i:])
            break
        # `}}}` closes after its first brace when the placeholder ends with `}`.
        while line.startswith("}}}", end):
            end += 1
        out.append(line[i:start])
        out.append(fill(line[start + 2 : end]))
        i = end + 2
    return "".join(out)


def pages(git_dir):
    listing = subprocess.run(
        ["git", "--git-dir", git_dir, "ls-tree", "-r", "HEAD", "--", *DIRS],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    for row in listing.splitlines():
        meta, path = row.split("\t", 1)
        _mode, kind, sha = meta.split()
        if kind == "blob" and path.endswith(".md"):
            yield path, sha


def main():
    git_dir = sys.argv[1]
    out = open(sys.argv[2], "w", encoding="utf-8") if len(sys.argv) > 2 else sys.stdout
    listed = list(pages(git_dir))
    batch = subprocess.run(
        ["git", "--git-dir", git_dir, "cat-file", "--batch"],
        input="".join(sha + "\n" for _, sha in listed).encode(),
        check=True,
        capture_output=True,
    ).stdout
    pos = 0
    count = 0
    for path, _sha in listed:
        header_end = batch.index(b"\n", pos)
        size = int(batch[pos:header_end].split()[2])
        body = batch[header_end + 1 : header_end + 1 + size].decode("utf-8", "replace")
        pos = header_end + 1 + size + 1
        page = path.rsplit("/", 1)[-1][:-3]
        for raw in body.splitlines():
            if raw.startswith("`") and raw.endswith("`") and len(raw) > 2:
                line = fill_line(raw[1:-1]).strip()
                if line and "\t" not in line:
                    out.write(f"{page}\t{line}\n")
                    count += 1
    print(f"{count} lines from {len(listed)} pages", file=sys.stderr)


if __name__ == "__main__":
    main()
