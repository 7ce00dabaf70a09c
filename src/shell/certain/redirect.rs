//! Redirections of the certain subset: `<`, `>`, `>>` with a descriptor, duplications,
//! here-strings and here-documents (their bodies read as bash ends them).

use super::*;

impl Reader<'_> {
    /// At `&>`: step over the `&` to the `>` of `&>WORD` or `&>>WORD`, which bash reads
    /// as `>WORD 2>&1` and `>>WORD 2>&1` (dash does not: see `wrap::posix_string`).
    pub(super) fn both_outputs(&mut self) -> Result<(), String> {
        self.i += 1;
        let after = match (self.peek_at(1), self.peek_at(2)) {
            (Some(b'>'), next) => next,
            (next, _) => next,
        };
        if matches!(after, Some(b'&' | b'|' | b'(')) {
            return Err(self.outside("`&>` before `&`, `|` or `(`"));
        }
        Ok(())
    }

    /// A redirection at `<` or `>`, into COMMAND (here-documents into HEREDOCS).
    pub(super) fn redirect(
        &mut self,
        command: &mut CertainCommand,
        heredocs: &mut Vec<(String, bool, bool)>,
    ) -> Result<(), String> {
        let op = self.peek();
        self.i += 1;
        let mut dup = false;
        match (op, self.peek()) {
            (Some(b'>'), Some(b'>')) => self.i += 1,
            (_, Some(b'&')) => {
                self.i += 1;
                dup = true;
            }
            (Some(b'>'), Some(b'|')) => return Err(self.outside("`>|`")),
            (Some(b'<'), Some(b'>')) => return Err(self.outside("`<>`")),
            (Some(b'<'), Some(b'<')) => {
                self.i += 1;
                return self.here(command, heredocs);
            }
            _ => {}
        }
        self.skip_blanks(false)?;
        let target = self.target()?;
        let text = target.word.text.as_str();
        if dup {
            let digits =
                text == "-" || (!text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()));
            if target.quoted || target.word.dynamic || !digits {
                return Err(self.outside("a duplication to a word"));
            }
        } else {
            if text.starts_with('~') && !target.quoted && !(text == "~" || text.starts_with("~/")) {
                // Bash and dash expand `~` and `~/...` in a redirection target as in any
                // word (`~user`, `~+`, `~-` are outside the subset everywhere).
                return Err(self.outside("`~` in a redirection"));
            }
            if target.word.glob {
                return Err(self.outside("a glob in a redirection"));
            }
            let target = known(target.word)?;
            if op != Some(b'<') {
                self.outputs.push(target.text.clone());
            }
            self.redirects.push(target.text.clone());
            command.redirects.push(target);
        }
        Ok(())
    }

    /// The word a redirection names.
    pub(super) fn target(&mut self) -> Result<WordText, String> {
        match self.peek() {
            Some(c) if is_word_char(c) && c != b'#' => {}
            Some(b'\'' | b'"' | b'\\' | b'$' | b'`') => {}
            _ => return Err(self.outside("a redirection without a target")),
        }
        let target = self.word()?;
        if target.word.text.is_empty() && !target.quoted {
            return Err(self.outside("a redirection without a target"));
        }
        Ok(target)
    }

    /// After `<<`: a here-string (`<<<`) or a here-document.
    pub(super) fn here(
        &mut self,
        command: &mut CertainCommand,
        heredocs: &mut Vec<(String, bool, bool)>,
    ) -> Result<(), String> {
        if self.peek() == Some(b'<') {
            self.i += 1;
            self.skip_blanks(false)?;
            let word = self.target()?;
            command.stdin.push(word.word.text);
            return Ok(());
        }
        if self.substituted > 0 {
            // Bash 5.2 ends a here-document inside `$(...)`, `<(...)` or backquotes at
            // a body line that starts with its delimiter and a `)` (`EOF)`, `EOFx)`,
            // `EOF); cmd`): the rest of the body is read as commands.
            self.i -= 2;
            return Err(self.outside("a here-document inside a substitution"));
        }
        let strip_tabs = self.peek() == Some(b'-');
        if strip_tabs {
            self.i += 1;
        }
        self.skip_blanks(false)?;
        let word = self.target()?;
        if word.word.dynamic || word.word.text.is_empty() || word.word.text.contains('\n') {
            return Err(self.outside("a here-document delimiter with an expansion"));
        }
        heredocs.push((word.word.text, word.quoted, strip_tabs));
        Ok(())
    }
}
