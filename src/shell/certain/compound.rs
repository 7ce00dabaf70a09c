//! Compound commands of the certain subset: subshells, groups, `if`, `while`, `until`
//! and `for` loops, each read to its closing word.

use super::*;

impl Reader<'_> {
    /// A compound command at the start of a command, if one starts here, and what ended
    /// it; None when a simple command starts here.
    pub(super) fn compound(&mut self, stop: Stop) -> Result<Option<End>, String> {
        let word_is = |r: &Self, w: &str| r.word_here(w);
        let mark = self.out.len();
        let redirects_at = self.redirects.len();
        // A group whose last item is `exit` alone, with no redirection (one that fails
        // runs nothing): it ends the shell.
        let mut exits = false;
        if self.peek() == Some(b'(') {
            if self.peek_at(1) == Some(b'(') {
                return Err(self.outside("an arithmetic command"));
            }
            self.i += 1;
            // A `cd` in a subshell ends with it: not repeated by a loop around.
            let outer = std::mem::take(&mut self.runs);
            let own = self.substituted == 0;
            if own {
                self.shells += 1;
                self.subshells.push(self.shells);
            }
            let body = self.nested(Stop::Paren, None);
            if own {
                self.subshells.pop();
            }
            self.runs = outer;
            body?;
        } else if word_is(self, "{") {
            self.i += 1;
            self.nested(Stop::Words(BRACE_END), Some("}"))?;
            exits = self.list_exits;
        } else if word_is(self, "if") {
            self.i += 2;
            self.nested(Stop::Words(THEN), Some("then"))?;
            // Each body runs right after its condition succeeded (`if cd d; then`).
            let mut ok = self.list_end.take();
            loop {
                self.entry = ok.take();
                match self.nested(Stop::Words(IF_BODY), None)? {
                    Some("elif") => {
                        self.nested(Stop::Words(THEN), Some("then"))?;
                        ok = self.list_end.take();
                    }
                    Some("else") => {
                        self.nested(Stop::Words(FI), Some("fi"))?;
                        break;
                    }
                    _ => break,
                }
            }
        } else if word_is(self, "while") || word_is(self, "until") {
            self.i += 5;
            let outer = self.runs;
            self.runs = outer.times(crate::shell::Runs::Any);
            let body = self
                .nested(Stop::Words(DO), Some("do"))
                .and_then(|_| self.nested(Stop::Words(DONE), Some("done")));
            self.runs = outer;
            body?;
        } else if word_is(self, "for") {
            self.i += 3;
            let runs = self.for_head()?;
            let outer = self.runs;
            self.runs = outer.times(runs);
            let body = self.nested(Stop::Words(DONE), Some("done"));
            self.runs = outer;
            self.loops.pop();
            body?;
        } else {
            return Ok(None);
        }
        // Redirections of the compound command apply to every command in it.
        let mut redirects = CertainCommand::default();
        let mut heredocs = Vec::new();
        loop {
            self.skip_blanks(false)?;
            let Some(c) = self.peek() else {
                if stop != Stop::Eof {
                    return Err(self.unterminated(stop));
                }
                self.group_exits = exits;
                return self
                    .compound_end(mark, redirects_at, redirects, End::Close)
                    .map(Some);
            };
            if let Some((len, end)) = self.operator(c, stop)? {
                self.op = (c, len);
                self.i += len;
                self.group_exits = exits;
                let end = self.compound_end(mark, redirects_at, redirects, end)?;
                if c == b'\n' {
                    self.bodies()?;
                }
                return Ok(Some(end));
            }
            exits = false;
            if c == b'&' {
                self.both_outputs()?;
            }
            if matches!(c, b'<' | b'>' | b'&') && self.peek_at(1) != Some(b'(') {
                self.redirect(&mut redirects, &mut heredocs)?;
                if !heredocs.is_empty() || !redirects.stdin.is_empty() {
                    return Err("a here-document or here-string on a compound command".into());
                }
                continue;
            }
            if c.is_ascii_digit() {
                let word = self.word()?;
                if word.word.text.bytes().all(|b| b.is_ascii_digit())
                    && !word.quoted
                    && matches!(self.peek(), Some(b'<' | b'>'))
                {
                    self.redirect(&mut redirects, &mut heredocs)?;
                    continue;
                }
            }
            if let Stop::Words(words) = stop {
                if let Some(w) = words.iter().find(|w| word_is(self, w)) {
                    self.i += w.len();
                    self.group_exits = exits;
                    return self
                        .compound_end(mark, redirects_at, redirects, End::Word(w))
                        .map(Some);
                }
            }
            return Err(self.outside("a word after a compound command"));
        }
    }

    /// True when the word W, unquoted, starts here.
    pub(super) fn word_here(&self, w: &str) -> bool {
        self.src[self.i..].starts_with(w) && ends_word(self.peek_at(w.len()))
    }

    pub(super) fn compound_end(
        &mut self,
        mark: usize,
        redirects_at: usize,
        redirects: CertainCommand,
        end: End,
    ) -> Result<End, String> {
        // Read after the body, walked before it: move them to where it starts.
        let n = redirects.redirects.len();
        let len = self.redirects.len();
        self.redirects[redirects_at..].rotate_right(n.min(len - redirects_at));
        for c in &mut self.out[mark..] {
            c.redirects.extend(redirects.redirects.iter().cloned());
        }
        Ok(end)
    }

    /// A list nested in a compound command, up to STOP, which must end with WANT when
    /// given; returns the word that ended it.
    pub(super) fn nested(
        &mut self,
        stop: Stop,
        want: Option<&'static str>,
    ) -> Result<Option<&'static str>, String> {
        self.enter()?;
        let before = self.out.len();
        let ended = self.list(stop);
        self.depth -= 1;
        let ended = ended?;
        if self.out.len() == before {
            return Err(self.outside("an empty command list"));
        }
        if let (Some(w), Some(got)) = (want, ended) {
            if w != got {
                return Err(format!("`{got}` where `{w}` was expected"));
            }
        }
        if want.is_some() && ended.is_none() {
            return Err(self.unterminated(stop));
        }
        Ok(ended)
    }

    /// `for NAME [in WORDS]` up to its `do`; how many times it runs its body.
    pub(super) fn for_head(&mut self) -> Result<crate::shell::Runs, String> {
        self.skip_blanks(false)?;
        self.headers.push(self.i);
        let name = self.word()?;
        if name.quoted || name.word.dynamic || !is_assignable(&name.word.text) {
            return Err(format!(
                "the loop variable `{}`, which may change what runs",
                crate::shell::word::show(&name.word.text)
            ));
        }
        self.skip_blanks(false)?;
        // Without `in`, the loop runs over the positional parameters.
        let listed = self.src[self.i..].starts_with("in") && ends_word(self.peek_at(2));
        let mut plain = true;
        let mut count = 0;
        if listed {
            self.i += 2;
            loop {
                self.skip_blanks(false)?;
                match self.peek() {
                    Some(b';' | b'\n') => break,
                    None => return Err("a `for` loop without `do`".into()),
                    Some(c) if ends_word(Some(c)) => {
                        return Err(self.outside("an operator in a `for` loop's words"))
                    }
                    _ => {
                        let w = known(self.word()?.word)?;
                        let assigned = format!("{}={}", name.word.text, w.text);
                        let value = CWord {
                            text: assigned,
                            ..w.clone()
                        };
                        if let Some(why) = charset(&value) {
                            return Err(why);
                        }
                        if subscript_expands(&w.text) {
                            return Err(self.outside("a subscript with an expansion"));
                        }
                        plain &= !w.dynamic && !w.glob && !w.text.contains([' ', '\t', '\n']);
                        count += 1;
                    }
                }
            }
        }
        self.loops.push(Loop {
            name: name.word.text,
            listed,
            plain: listed && plain,
        });
        // `;` or newlines, then `do`.
        if self.peek() == Some(b';') {
            self.i += 1;
        }
        self.skip_blanks(true)?;
        if self.src[self.i..].starts_with("do") && ends_word(self.peek_at(2)) {
            self.i += 2;
            Ok(if listed && plain {
                crate::shell::Runs::AtMost(count.max(1))
            } else {
                crate::shell::Runs::Any
            })
        } else {
            Err(self.outside("a `for` loop without `do`"))
        }
    }
}
