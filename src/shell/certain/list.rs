//! Command lists of the certain subset: the commands joined by `;`, `&`, `&&`, `||` and
//! `|`, and what each runs right after (see [`crate::shell::Place::after`]).

use super::*;

impl Reader<'_> {
    /// A command list up to STOP; returns the reserved word that ended it, if any.
    pub(super) fn list(&mut self, stop: Stop) -> Result<Option<&'static str>, String> {
        let mut need_command = false;
        // The simple command the next one runs right after (see [`After`]): the one
        // before it in a list joined by `&&` from its start, the item before it when
        // that is one simple command (`a; b`, `a || exit; b`), or the list's entry.
        let mut after: Option<After> = self.entry.take();
        // What the item being read started after, and whether it is one pipeline so far.
        let (mut item_entry, mut one_pipeline) = (None, true);
        // The last item read is `exit` alone, and every item read is one simple command
        // that cannot throw the rest of the line away, or `exit` (see
        // [`Reader::list_exits`]).
        let (mut last_exit, mut quiet) = (false, true);
        let mut chain = true;
        let mut piped = false;
        // The simple command that ended with `|`, if the last one did.
        let mut fed: Option<usize> = None;
        // The command the pipeline being read runs after (see `after`).
        let mut pipe_after: Option<After> = None;
        // The command read next is the first of its list (`a; b`, not `a && b`).
        let mut first = true;
        // The first command of the item being read, when `||` ended it (`cd d || exit`).
        let mut or_from: Option<usize> = None;
        // The command whose success the list's success means: its last item one simple
        // command, or simple commands joined by `&&` (an `if` condition's).
        let mut ok: Option<After> = None;
        loop {
            let at = self.i;
            self.skip_blanks(true)?;
            // A new line of the text (past a comment: `a; # c`), not one that goes on
            // after an operator: see below.
            if stop == Stop::Eof && !need_command && self.src[at..self.i].contains('\n') {
                after = None;
            }
            let close = match self.peek() {
                None if stop != Stop::Eof => return Err(self.unterminated(stop)),
                None => true,
                Some(b')') if stop == Stop::Paren => {
                    self.i += 1;
                    true
                }
                _ => false,
            };
            if close {
                if need_command {
                    return Err("a command list that ends with an operator".into());
                }
                (self.list_end, self.list_exits) = (ok, last_exit && quiet);
                return self.end_list(None);
            }
            self.simple = None;
            let mark = self.out.len();
            let end = self.command(stop)?;
            // A command of a pipeline of more than one runs after nothing in particular.
            let pipe = end == End::Continue && self.op == (b'|', 1);
            if pipe || (end == End::List && self.op == (b'&', 1)) {
                self.concurrent = true;
            }
            // The simple command before it in a pipeline feeds a simple command.
            if let (true, Some(from), Some(i)) = (piped, fed, self.simple) {
                if let Some(c) = self.out.get_mut(i) {
                    c.piped_from = Some(from);
                }
            }
            fed = self.simple.filter(|_| pipe);
            // Each command of a pipeline runs once the one before the pipeline succeeded,
            // in the directory it leaves (`cd src && grep -r x . | head`).
            if !piped && pipe {
                pipe_after = after;
            }
            let simple = self.simple.take();
            self.give_after(simple.filter(|_| piped || pipe), pipe_after);
            let this = simple.filter(|_| !piped && !pipe);
            // `d=build;` or `d=build &&` first in a list at the top: a plain value.
            let always = match end {
                End::Close => true,
                End::List => matches!(self.op, (b';', 1) | (b'\n', 1)),
                End::Continue => matches!(self.op, (b'&', 2) | (b'|', 2)),
                End::Word(_) => false,
            };
            if let Some(i) =
                this.filter(|_| always && first && self.depth == 0 && self.substituted == 0)
            {
                self.note_plain(i);
            }
            let starts_item = first;
            first = end == End::List;
            if starts_item {
                (item_entry, one_pipeline) = (after, true);
            }
            self.give_after(this, after);
            let and = end == End::Continue && self.op == (b'&', 2);
            let or = end == End::Continue && self.op == (b'|', 2);
            one_pipeline &= !and && !or;
            // The item ends here, and the next runs in the same shell (not after `&`).
            let separated = end == End::List && matches!(self.op, (b';', 1) | (b'\n', 1));
            let background = end == End::List && self.op == (b'&', 1);
            let exit = this.is_some_and(|i| self.is_exit(i));
            if self.out.len() > mark {
                ok = this.filter(|_| chain && !background).map(After::succeeded);
                let whole = starts_item && separated && this.is_some();
                last_exit = whole && exit;
                quiet &= whole && (exit || this.is_some_and(|i| self.is_quiet(i)));
            }
            // `A || exit`, `A || { ...; exit 1; }`: bash goes on only once A succeeded.
            let group_exits = std::mem::take(&mut self.group_exits);
            let exited = or_from
                .take()
                .filter(|_| separated && (exit || group_exits));
            // After a pipeline (its commands run in subshells) or assignments alone, the
            // shell is where it was.
            let assigns = this.is_some_and(|i| self.out.get(i).is_some_and(|c| c.words.is_empty()));
            let keeps = separated && one_pipeline && (piped || (starts_item && assigns));
            chain = match end {
                End::Continue => chain && !or,
                _ => true,
            };
            after = match (exited, this) {
                (Some(a), _) => Some(After::succeeded(a)),
                _ if keeps => item_entry,
                (None, Some(i)) if chain && and => Some(After::succeeded(i)),
                (None, Some(i)) if separated && starts_item => Some(After::ran(i)),
                _ => None,
            };
            // bash may throw the rest of a line away (an expansion error, an assignment
            // to a readonly variable) and go on with the next: the first command of a
            // line of the text runs after nothing known.
            if stop == Stop::Eof && separated && self.op == (b'\n', 1) {
                after = None;
            }
            or_from = this.filter(|_| starts_item && or);
            piped = pipe;
            match end {
                End::Close => {
                    (self.list_end, self.list_exits) = (ok, last_exit && quiet);
                    return self.end_list(None);
                }
                End::Word(w) => {
                    if need_command {
                        return Err(format!("an operator before `{w}`"));
                    }
                    (self.list_end, self.list_exits) = (ok, last_exit && quiet);
                    return self.end_list(Some(w));
                }
                End::List => need_command = false,
                End::Continue => need_command = true,
            }
        }
    }

    /// Command I, when one, runs right after A, when known.
    fn give_after(&mut self, i: Option<usize>, a: Option<After>) {
        if let (Some(c), Some(a)) = (i.and_then(|i| self.out.get_mut(i)), a) {
            c.after = Some(a);
        }
    }

    /// Whether command I cannot throw the rest of the line away (see
    /// [`crate::shell::quiet`]), nor its redirections (no expansion in them).
    fn is_quiet(&self, i: usize) -> bool {
        self.out.get(i).is_some_and(|c| {
            let words: Vec<&str> = c.words.iter().map(|w| w.text.as_str()).collect();
            c.assignments.is_empty()
                && c.stdin.is_empty()
                && c.words.iter().all(|w| !w.dynamic)
                && c.redirects.iter().all(|w| !w.dynamic)
                && c.redirections.iter().all(|r| !r.contains(['$', '`', '(']))
                && crate::shell::quiet(&words)
        })
    }

    /// Whether command I is `exit`, with a number or none, alone: it ends the shell
    /// (`exit --help` does not).
    fn is_exit(&self, i: usize) -> bool {
        self.out.get(i).is_some_and(|c| {
            let words: Vec<Option<&str>> = c
                .words
                .iter()
                .map(|w| Some(w.text.as_str()).filter(|_| !w.dynamic))
                .collect();
            c.assignments.is_empty() && c.redirections.is_empty() && exits(&words)
        })
    }
}
