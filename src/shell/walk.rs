//! The walk over brush-parser's syntax tree: every simple command, every word, every
//! redirection, and the command lines nested in words.

use super::assigned::{assigned_code, env_values, give_env_values};
use super::certain;
use super::expand::{arith, expand_word, heredoc, subscript, word};
use super::guard;
use super::guess::{fallback_raw, fallback_tokens};
use super::scan;
use super::state::{note, Budget, Cx, Frame, MAX_AST_DEPTH, TOKENIZE_ERROR};
use super::word::{
    arith_is_literal, given_any_program, is_dangerous_var, is_inert_var_name, show,
    subscript_is_literal, takes_any_environment, Word,
};
use super::{wrap, After, CommandLine, Runs, MAX_DEPTH};
use brush_parser::ast;

/// Parse a whole line.
pub(crate) fn parse_line(line: &str) -> CommandLine {
    let mut cx = Cx::new(parse_into);
    parse_into(&mut cx, &Frame::default(), line);
    cx.out
}

/// Parse each of LINES, as [`parse_line`] does, with one budget for them all.
pub(crate) fn parse_lines(lines: &[String]) -> Vec<CommandLine> {
    let mut budget = Budget::default();
    lines
        .iter()
        .map(|line| {
            let mut cx = Cx::new(parse_into);
            cx.parse_budget = budget;
            parse_into(&mut cx, &Frame::default(), line);
            budget = cx.parse_budget;
            cx.out
        })
        .collect()
}

/// Parse LINE with brush-parser even when it is plain: what the shortcut of
/// [`plain_commands`] must agree with.
pub(crate) fn parse_line_slow(line: &str) -> CommandLine {
    let mut cx = Cx::new(parse_into);
    cx.no_shortcut = true;
    parse_into(&mut cx, &Frame::default(), line);
    cx.out
}

/// Guess the commands of LINE from its raw text, without brush-parser.
pub(crate) fn guess_line(line: &str) -> CommandLine {
    let mut cx = Cx::new(parse_into);
    cx.raw_only = true;
    parse_into(&mut cx, &Frame::default(), line);
    cx.out
}

/// Judge a command given as words.
pub(crate) fn from_argv(argv: &[String]) -> CommandLine {
    let mut cx = Cx::new(parse_into);
    if argv.is_empty() {
        cx.line_opaque("empty command");
        return cx.out;
    }
    let total: usize = argv.iter().map(|a| a.len() + 1).sum();
    if total > guard::MAX_LINE {
        cx.line_opaque(format!("longer than {} bytes", guard::MAX_LINE));
        return cx.out;
    }
    for a in argv {
        if let Err(why) = guard::check_chars(a) {
            cx.line_opaque(why);
        }
    }
    let words = argv.iter().map(|a| Word::literal(a.as_str())).collect();
    wrap::command(&mut cx, &Frame::default(), words, None, Vec::new());
    cx.out
}

/// Read SRC, which could not be parsed for WHY, only by guessing its commands from the
/// raw text. Guesses are not a reading (`$'\x72m'` and `r$()m` are `rm` to bash, and to
/// no guess), so the line is truncated: never allowed, and every deny-side command and
/// path rule matches it.
fn guess_only(cx: &mut Cx, fr: &Frame, src: &str, why: String) {
    cx.truncate(why.clone());
    cx.unplaced(|cx| guess(cx, fr, src, &why));
}

/// Guess the commands of SRC from its raw text (see [`fallback_raw`]), as far as the
/// line's budget for guesses reaches; past it, the line is truncated.
fn guess(cx: &mut Cx, fr: &Frame, src: &str, why: &str) {
    // What runs when is not known.
    cx.out.concurrent = true;
    // Guessing costs tens of nanoseconds a byte: one budget for the line and its looks.
    let mut end = src.len().min(cx.parse_budget.guessed);
    while !src.is_char_boundary(end) {
        end -= 1;
    }
    if end < src.len() {
        cx.truncate(format!(
            "more than {} KB guessed at in one line",
            guard::MAX_GUESSED_BYTES >> 10
        ));
    }
    cx.parse_budget.guessed -= end;
    cx.unplaced(|cx| fallback_raw(cx, fr, &src[..end], why));
}

/// Parse SRC as a command line read in frame FR and add what it runs to CX.
pub(crate) fn parse_into(cx: &mut Cx, fr: &Frame, src: &str) {
    // A text nested in the line's own (a string a shell is given, a substitution): its
    // commands run elsewhere, or later.
    if fr.depth > 0 {
        return cx.unplaced(|cx| read_text(cx, fr, src));
    }
    read_text(cx, fr, src);
    if cx.functions {
        for c in &mut cx.out.commands {
            c.place = None;
        }
    }
}

/// [`parse_into`], the places of commands aside.
fn read_text(cx: &mut Cx, fr: &Frame, src: &str) {
    if fr.depth > MAX_DEPTH {
        // One level of guessing for deny rules; the guesses nest no further.
        if fr.depth == MAX_DEPTH + 1 {
            guess_only(
                cx,
                fr,
                src,
                format!("nested more than {MAX_DEPTH} levels deep"),
            );
        }
        return;
    }
    if let Err(why) = guard::check_chars(src) {
        cx.line_opaque(why);
    }
    if cx.raw_only {
        guess_only(cx, fr, src, "not parsed".into());
        return;
    }
    if let Err(why) = guard::check_text(src) {
        guess_only(cx, fr, src, why);
        return;
    }
    // Reading costs about a microsecond a word: past the bound, only guesses.
    if scan::more_words_than(src, guard::MAX_TOKENS) {
        guess_only(
            cx,
            fr,
            src,
            format!("more than {} words", guard::MAX_TOKENS),
        );
        return;
    }
    let certain = cx
        .parse_budget
        .spend_certain(src)
        .and_then(|()| certain::read(src));
    match certain {
        Ok(line) if !cx.no_shortcut => return super::put_certain::put_certain(cx, fr, line),
        Ok(_) => {}
        Err(why) => cx.uncertain(format!("outside the certain subset: {why}")),
    }
    let parsed = tokenize_and_parse(cx, src);
    // brush-parser stumbles on a comment inside `$(...)`: when it cannot read the text,
    // it reads the text without its comments, and the commands guessed from the text as
    // written are kept too (the scan that finds comments is not bash's parser: what it
    // took for a comment is never lost).
    let parsed = match parsed {
        Err(failed) => match scan::without_comments(src).map(|d| tokenize_and_parse(cx, &d)) {
            Some(Ok(read)) => {
                let why = failed.why();
                cx.line_opaque(why.clone());
                guess(cx, fr, src, &why);
                Ok(read)
            }
            _ => Err(failed),
        },
        ok => ok,
    };
    match parsed {
        Ok((tokens, program)) => {
            let outer_deep = std::mem::take(&mut cx.too_deep);
            // bash may throw the rest of a line away (an expansion error, an assignment
            // to a readonly variable) and go on with the next (helper-103): the first
            // command of each line runs after nothing known.
            for list in &program.complete_commands {
                compound_list(cx, fr, list, 0, None);
            }
            if std::mem::replace(&mut cx.too_deep, outer_deep) {
                // Guesses are not a reading: see [`guess_only`].
                cx.truncate(format!("commands nested more than {MAX_AST_DEPTH} deep"));
                cx.unplaced(|cx| fallback_tokens(cx, fr, &tokens, "nested too deep"));
            }
        }
        Err(Failed::Tokens(why) | Failed::Checked(why)) => guess_only(cx, fr, src, why),
        // The tokens are bash's words: each run of them between operators is read as
        // a command, and every word of it as a path.
        Err(Failed::Parse(tokens, why)) => {
            cx.line_opaque(why.clone());
            cx.unplaced(|cx| fallback_tokens(cx, fr, &tokens, &why));
        }
    }
}

/// Why brush-parser could not read a text.
enum Failed {
    /// It could not tokenize it.
    Tokens(String),
    /// Its tokens are past a bound of [`guard::check_tokens`].
    Checked(String),
    /// It could not parse the tokens.
    Parse(Vec<brush_parser::Token>, String),
}

impl Failed {
    fn why(&self) -> String {
        match self {
            Failed::Tokens(w) | Failed::Checked(w) | Failed::Parse(_, w) => w.clone(),
        }
    }
}

/// SRC tokenized and parsed by brush-parser, within the budget of CX.
fn tokenize_and_parse(
    cx: &mut Cx,
    src: &str,
) -> Result<(Vec<brush_parser::Token>, ast::Program), Failed> {
    cx.parse_budget.spend(src).map_err(Failed::Checked)?;
    let tokens = brush_parser::uncached_tokenize_str(src, &cx.opts.tokenizer_options())
        .map_err(|e| Failed::Tokens(format!("{TOKENIZE_ERROR}: {e}")))?;
    guard::check_tokens(&tokens).map_err(Failed::Checked)?;
    match brush_parser::parse_tokens(&tokens, &cx.opts) {
        Ok(program) => Ok((tokens, program)),
        Err(e) => Err(Failed::Parse(
            tokens,
            format!("{}: {e}", super::state::PARSE_ERROR),
        )),
    }
}

// ---------------------------------------------------------------------------------------
// The syntax tree.

/// Walk LIST, whose first command runs right after ENTRY (when known: the condition
/// of an `if`, before its `then` body); returns the command whose success the list's
/// success means (its last item one simple command, or simple commands joined by `&&`).
fn compound_list(
    cx: &mut Cx,
    fr: &Frame,
    list: &ast::CompoundList,
    d: usize,
    entry: Option<After>,
) -> Option<After> {
    let mut before = entry;
    let mut end = None;
    for item in &list.0 {
        let and_or = &item.0;
        let background = matches!(item.1, ast::SeparatorOperator::Async);
        if background {
            cx.out.concurrent = true;
        }
        // While the list is simple commands joined by `&&` alone, each runs right after
        // the one before it succeeded (see [`super::Place::after`]).
        let entry = before.take();
        let first = placed_pipeline(cx, fr, &and_or.first, d, entry);
        let mut after = first;
        // Past a `||`, what ran last before a command is not known.
        let mut chain = true;
        let mut exited = false;
        for next in &and_or.additional {
            match next {
                ast::AndOr::And(p) if chain => {
                    after = placed_pipeline(cx, fr, p, d, after.map(After::succeeded));
                }
                ast::AndOr::And(p) | ast::AndOr::Or(p) => {
                    chain = false;
                    let from = cx.out.commands.len();
                    pipeline(cx, fr, p, d, None);
                    exited = and_or.additional.len() == 1 && exits(cx, p, from);
                }
            }
        }
        if background {
            end = None;
            before = None;
            continue;
        }
        end = after.filter(|_| chain).map(After::succeeded);
        // The next item runs right after the command before `|| exit`, which succeeded
        // (bash ends the shell else: `cd d || exit; rm x`); where this one started after
        // a pipeline (its commands run in subshells) or assignments alone; right after
        // this one's only simple command, which ran (`a; b`).
        before = match (&and_or.additional[..], first) {
            ([ast::AndOr::Or(_)], Some(k)) if exited => Some(After::succeeded(k)),
            ([], _) if keeps_place(&and_or.first) => entry,
            ([], Some(k)) => Some(After::ran(k)),
            _ => None,
        };
    }
    end
}

/// Whether P, walked from command FROM on, is `exit` with a number or none and no
/// redirection, alone or last in a group (with no redirection) whose other items are
/// simple commands that cannot throw the rest of the line away (`{ echo no >&2; exit 1;
/// }`: see [`super::quiet`]): it ends the shell it runs in.
fn exits(cx: &Cx, p: &ast::Pipeline, from: usize) -> bool {
    fn simple(p: &ast::Pipeline) -> Option<&ast::SimpleCommand> {
        match &p.seq[..] {
            [ast::Command::Simple(s)] if !p.bang && p.timed.is_none() => Some(s),
            _ => None,
        }
    }
    let items: Option<Vec<&ast::SimpleCommand>> = match &p.seq[..] {
        [ast::Command::Compound(ast::CompoundCommand::BraceGroup(b), None)] => b
            .list
            .0
            .iter()
            .map(|item| match item {
                ast::CompoundListItem(a, ast::SeparatorOperator::Sequence)
                    if a.additional.is_empty() =>
                {
                    simple(&a.first)
                }
                _ => None,
            })
            .collect(),
        _ => simple(p).map(|s| vec![s]),
    };
    let Some((last, before)) = items.as_ref().and_then(|i| i.split_last()) else {
        return false;
    };
    fn suffix(s: &ast::SimpleCommand) -> impl Iterator<Item = &ast::CommandPrefixOrSuffixItem> {
        s.suffix.iter().flat_map(|x| &x.0)
    }
    // No redirection of `exit`'s own (one that fails runs nothing); the others' with
    // no expansion in their targets, and no here-document.
    let bare = |s: &&ast::SimpleCommand| {
        s.prefix.is_none()
            && suffix(s).all(|i| matches!(i, ast::CommandPrefixOrSuffixItem::Word(_)))
    };
    let plain_redirects = |s: &&ast::SimpleCommand| {
        s.prefix.is_none()
            && suffix(s).all(|i| match i {
                ast::CommandPrefixOrSuffixItem::Word(_) => true,
                ast::CommandPrefixOrSuffixItem::IoRedirect(r) => match r {
                    ast::IoRedirect::File(_, _, ast::IoFileRedirectTarget::Fd(_)) => true,
                    ast::IoRedirect::File(_, _, ast::IoFileRedirectTarget::Filename(w))
                    | ast::IoRedirect::OutputAndError(w, _) => !w.value.contains(['$', '`']),
                    _ => false,
                },
                _ => false,
            })
    };
    let pushed = cx.out.commands.get(from..).unwrap_or_default();
    bare(last)
        && before.iter().all(plain_redirects)
        && pushed.len() == before.len() + 1
        && pushed.iter().all(|c| c.place.is_some())
        && pushed.split_last().is_some_and(|(exit, others)| {
            let exit: Vec<Option<&str>> = exit.written.iter().map(|w| Some(w.as_str())).collect();
            super::exits(&exit)
                && others.iter().all(|c| {
                    let words: Vec<&str> = c.written.iter().map(String::as_str).collect();
                    super::quiet(&words)
                })
        })
}

/// Whether the shell is where it was after P: its commands run in subshells (`ls |
/// head`), or it only assigns (`x=1`).
fn keeps_place(p: &ast::Pipeline) -> bool {
    match &p.seq[..] {
        [ast::Command::Simple(s)] => s.word_or_name.is_none(),
        seq => seq.len() > 1,
    }
}

/// Walk P, a pipeline that runs right after AFTER (when known); the command it runs,
/// when it is one simple command whose place is known.
fn placed_pipeline(
    cx: &mut Cx,
    fr: &Frame,
    p: &ast::Pipeline,
    d: usize,
    after: Option<After>,
) -> Option<usize> {
    let simple =
        p.seq.len() == 1 && !p.bang && matches!(p.seq.first(), Some(ast::Command::Simple(_)));
    cx.last_placed = None;
    let from = cx.out.commands.len();
    pipeline(cx, fr, p, d, after);
    let this = cx.last_placed.take().filter(|_| simple);
    if simple {
        cx.run_after(from, after);
    }
    this
}

/// Walk P; each simple command of a pipeline of more than one runs right after AFTER,
/// in the directory it leaves (`cd src && grep -r x . | head`).
fn pipeline(cx: &mut Cx, fr: &Frame, p: &ast::Pipeline, d: usize, after: Option<After>) {
    if p.seq.len() > 1 {
        cx.out.concurrent = true;
    }
    // The words of the simple command before, whose output each reads (`find | xargs`).
    let mut before = None;
    for (k, c) in p.seq.iter().enumerate() {
        let from = cx.out.commands.len();
        // `time [-p] -- CMD`: the parser leaves the `--` that ends the reserved word's
        // options as the first word of the first command (see [`simple`]).
        cx.timed_first = k == 0 && p.timed.is_some();
        cx.piped = before.take();
        cx.last_simple = None;
        // Each command of a pipeline runs in a subshell.
        if p.seq.len() > 1 {
            cx.subshell(|cx| command(cx, fr, c, d + 1));
        } else {
            command(cx, fr, c, d + 1);
        }
        cx.piped = None;
        before = match c {
            ast::Command::Simple(_) => cx.last_simple.take(),
            _ => None,
        };
        if p.seq.len() > 1 && matches!(c, ast::Command::Simple(_)) {
            cx.run_after(from, after);
        }
    }
}

fn command(cx: &mut Cx, fr: &Frame, c: &ast::Command, d: usize) {
    // Only a simple command may start with the `--` of `time --` (see [`pipeline`]).
    let timed = std::mem::take(&mut cx.timed_first);
    if d > MAX_AST_DEPTH {
        cx.line_opaque(format!("commands nested more than {MAX_AST_DEPTH} deep"));
        cx.too_deep = true;
        return;
    }
    match c {
        ast::Command::Simple(s) => {
            let own = std::mem::take(&mut cx.own_redirects);
            cx.timed_first = timed;
            simple(cx, fr, s, d);
            cx.own_redirects = own;
        }
        ast::Command::Compound(cc, redirects) => {
            let mark = enclose(cx, fr, redirects.as_ref(), d);
            compound(cx, fr, cc, d);
            cx.enclosing_redirects.truncate(mark);
        }
        ast::Command::Function(f) => {
            cx.functions = true;
            let mark = enclose(cx, fr, f.body.1.as_ref(), d);
            // A function may be called any number of times.
            cx.repeated(Runs::Any, |cx| compound(cx, fr, &f.body.0, d));
            cx.enclosing_redirects.truncate(mark);
        }
        ast::Command::ExtendedTest(t, redirects) => {
            redirect_list(cx, fr, redirects.as_ref(), d);
            let mut h = None;
            ext_test(cx, fr, &t.expr, d, &mut h);
            if let Some(h) = h {
                cx.line_opaque(h);
            }
        }
    }
}

/// Walk the redirections LIST of a compound command and make them apply to every command
/// in it; returns the length of the enclosing redirections to restore afterwards.
fn enclose(cx: &mut Cx, fr: &Frame, list: Option<&ast::RedirectList>, d: usize) -> usize {
    let mark = cx.enclosing_redirects.len();
    let own = std::mem::take(&mut cx.own_redirects);
    redirect_list(cx, fr, list, d);
    let added = std::mem::replace(&mut cx.own_redirects, own);
    cx.enclosing_redirects.extend(added);
    mark
}

fn compound(cx: &mut Cx, fr: &Frame, cc: &ast::CompoundCommand, d: usize) {
    let mut h = None;
    match cc {
        ast::CompoundCommand::Arithmetic(a) => arith(cx, fr, &a.expr.value, &mut h, true),
        ast::CompoundCommand::ArithmeticForClause(f) => {
            for e in [&f.initializer, &f.condition, &f.updater]
                .into_iter()
                .flatten()
            {
                arith(cx, fr, &e.value, &mut h, false);
            }
            cx.repeated(Runs::Any, |cx| compound_list(cx, fr, &f.body.list, d, None));
        }
        ast::CompoundCommand::BraceGroup(b) => {
            compound_list(cx, fr, &b.list, d, None);
        }
        ast::CompoundCommand::Subshell(s) if cx.nested == 0 => {
            cx.in_subshell(|cx| compound_list(cx, fr, &s.list, d, None));
        }
        ast::CompoundCommand::Subshell(s) => {
            cx.subshell(|cx| compound_list(cx, fr, &s.list, d, None));
        }
        ast::CompoundCommand::ForClause(f) => {
            for w in f.values.iter().flatten() {
                expand_word(cx, fr, &w.value, &mut h);
            }
            // Over a list of plain words, once a word; else any number of times.
            let runs = match &f.values {
                Some(words)
                    if words.iter().all(|w| {
                        !w.value
                            .contains(['$', '`', '*', '?', '[', '{', '\\', '"', '\''])
                    }) =>
                {
                    Runs::AtMost(words.len().max(1))
                }
                _ => Runs::Any,
            };
            cx.repeated(runs, |cx| compound_list(cx, fr, &f.body.list, d, None));
        }
        ast::CompoundCommand::CaseClause(c) => {
            word(cx, fr, &c.value.value, &mut h);
            for item in &c.cases {
                for p in &item.patterns {
                    word(cx, fr, &p.value, &mut h);
                }
                if let Some(list) = &item.cmd {
                    compound_list(cx, fr, list, d, None);
                }
            }
        }
        ast::CompoundCommand::IfClause(i) => {
            // Each body runs right after its condition succeeded (`if cd d; then`).
            let ok = compound_list(cx, fr, &i.condition, d, None);
            compound_list(cx, fr, &i.then, d, ok);
            for e in i.elses.iter().flatten() {
                let ok = match &e.condition {
                    Some(c) => compound_list(cx, fr, c, d, None),
                    None => None,
                };
                compound_list(cx, fr, &e.body, d, ok);
            }
        }
        ast::CompoundCommand::WhileClause(w) | ast::CompoundCommand::UntilClause(w) => {
            cx.repeated(Runs::Any, |cx| {
                compound_list(cx, fr, &w.0, d, None);
                compound_list(cx, fr, &w.1.list, d, None);
            });
        }
        ast::CompoundCommand::Coprocess(c) => {
            cx.out.concurrent = true;
            command(cx, fr, &c.body, d + 1)
        }
    }
    if let Some(h) = h {
        cx.line_opaque(h);
    }
}

fn ext_test(cx: &mut Cx, fr: &Frame, e: &ast::ExtendedTestExpr, d: usize, h: &mut Option<String>) {
    use ast::{BinaryPredicate as B, ExtendedTestExpr as E, UnaryPredicate as U};
    if d > MAX_AST_DEPTH {
        cx.line_opaque(format!("test nested more than {MAX_AST_DEPTH} deep"));
        cx.too_deep = true;
        return;
    }
    match e {
        E::And(a, b) | E::Or(a, b) => {
            ext_test(cx, fr, a, d + 1, h);
            ext_test(cx, fr, b, d + 1, h);
        }
        E::Not(a) | E::Parenthesized(a) => ext_test(cx, fr, a, d + 1, h),
        E::UnaryTest(pred, w) => {
            let w = word(cx, fr, &w.value, h);
            if matches!(
                pred,
                U::ShellVariableIsSetAndAssigned | U::ShellVariableIsSetAndNameRef
            ) && !(w.is_static && is_inert_var_name(&w.text))
            {
                note(h, format!("`[[ -v {} ]]` may run commands", show(&w.text)));
            }
        }
        E::BinaryTest(pred, l, r) => {
            let l = word(cx, fr, &l.value, h);
            let r = word(cx, fr, &r.value, h);
            let arithmetic = matches!(
                pred,
                B::ArithmeticEqualTo
                    | B::ArithmeticNotEqualTo
                    | B::ArithmeticLessThan
                    | B::ArithmeticLessThanOrEqualTo
                    | B::ArithmeticGreaterThan
                    | B::ArithmeticGreaterThanOrEqualTo
            );
            for w in [l, r] {
                if arithmetic && !(w.is_static && arith_is_literal(&w.text)) {
                    note(
                        h,
                        format!(
                            "arithmetic comparison of `{}` may run commands",
                            show(&w.text)
                        ),
                    );
                }
            }
        }
    }
}

fn simple(cx: &mut Cx, fr: &Frame, s: &ast::SimpleCommand, d: usize) {
    let timed = std::mem::take(&mut cx.timed_first);
    let fed = cx.piped.take();
    let mut hazard = None;
    let mut words = Vec::new();
    let any_env = s
        .word_or_name
        .as_ref()
        .is_some_and(|n| takes_any_environment(&n.value));
    for item in s.prefix.iter().flat_map(|p| p.0.iter()) {
        item_into(
            cx,
            fr,
            item,
            &mut words,
            &mut hazard,
            Item::Prefix { any_env },
            d,
        );
        if let ast::CommandPrefixOrSuffixItem::AssignmentWord(a, _) = item {
            assigned_code(cx, fr, a, any_env);
        }
    }
    if let Some(name) = &s.word_or_name {
        // The `--` of `time -- CMD` is the reserved word's, not a command (bash 5.2).
        if !(timed && s.prefix.is_none() && name.value == "--") {
            words.extend(expand_word(cx, fr, &name.value, &mut hazard));
        }
    }
    for item in s.suffix.iter().flat_map(|p| p.0.iter()) {
        item_into(cx, fr, item, &mut words, &mut hazard, Item::Suffix, d);
    }
    if words.is_empty() {
        // Only assignments and redirections: they change the shell itself.
        if let Some(h) = hazard {
            cx.line_opaque(h);
        }
        return;
    }
    let stdin = stdin_texts(fr, s);
    let from = cx.out.commands.len();
    let mine = wrap::Fed {
        words: words.clone(),
        redirections: wrap::redirections_of(s),
    };
    wrap::piped_command(
        cx,
        fr,
        fed.as_ref(),
        words,
        &mine.redirections,
        hazard,
        stdin,
    );
    if any_env {
        give_env_values(cx, from, &env_values(cx, fr, s));
    }
    cx.last_simple = Some(mine);
}

/// The here-documents and here-strings S reads as standard input, as text.
fn stdin_texts(fr: &Frame, s: &ast::SimpleCommand) -> Vec<String> {
    let mut texts = Vec::new();
    let items = s.prefix.iter().flat_map(|p| p.0.iter());
    for item in items.chain(s.suffix.iter().flat_map(|p| p.0.iter())) {
        match item {
            ast::CommandPrefixOrSuffixItem::IoRedirect(ast::IoRedirect::HereDocument(fd, doc))
                if fd.unwrap_or(0) == 0 =>
            {
                texts.push(doc.doc.value.clone())
            }
            ast::CommandPrefixOrSuffixItem::IoRedirect(ast::IoRedirect::HereString(fd, w))
                if fd.unwrap_or(0) == 0 =>
            {
                // Already walked for its own substitutions; read it again quietly.
                let mut quiet = Cx::new(parse_into);
                let mut h = None;
                let w = word(&mut quiet, fr, &w.value, &mut h);
                texts.push(w.text);
            }
            _ => {}
        }
    }
    texts
}

/// Where an item of a simple command stands: before its name (with whether its program
/// takes any variable: see [`takes_any_environment`]) or after it.
#[derive(Clone, Copy)]
enum Item {
    Prefix { any_env: bool },
    Suffix,
}

fn item_into(
    cx: &mut Cx,
    fr: &Frame,
    item: &ast::CommandPrefixOrSuffixItem,
    words: &mut Vec<Word>,
    hazard: &mut Option<String>,
    at: Item,
    d: usize,
) {
    match item {
        ast::CommandPrefixOrSuffixItem::IoRedirect(r) => redirect(cx, fr, r, hazard, d),
        ast::CommandPrefixOrSuffixItem::Word(w) => {
            // `{name}>file` stores a descriptor in NAME, evaluating a subscript in it;
            // brush-parser reads `{name}` as a word.
            let inner = w.value.strip_prefix('{').and_then(|v| v.strip_suffix('}'));
            if let Some(name) = inner.filter(|n| n.contains('[')) {
                if !is_inert_var_name(name) {
                    note(
                        hazard,
                        format!("descriptor variable `{}` may run commands", show(name)),
                    );
                }
            }
            words.extend(expand_word(cx, fr, &w.value, hazard));
        }
        ast::CommandPrefixOrSuffixItem::AssignmentWord(a, _) => {
            let any_env = matches!(at, Item::Prefix { any_env: true });
            let w = assignment(cx, fr, a, hazard, any_env);
            if matches!(at, Item::Suffix) {
                words.push(w);
            }
        }
        ast::CommandPrefixOrSuffixItem::ProcessSubstitution(kind, sub) => {
            cx.out.concurrent = true;
            cx.isolated(|cx| compound_list(cx, fr, &sub.list, d + 1, None));
            let text = match kind {
                ast::ProcessSubstitutionKind::Read => "<(...)",
                ast::ProcessSubstitutionKind::Write => ">(...)",
            };
            words.push(Word {
                text: text.into(),
                is_static: false,
                pattern: false,
            });
        }
    }
}

/// An assignment `NAME=VALUE` or `NAME[SUB]=VALUE`, as a word; ANY_ENV: it stands before
/// a program that takes any variable ([`takes_any_environment`]).
fn assignment(
    cx: &mut Cx,
    fr: &Frame,
    a: &ast::Assignment,
    h: &mut Option<String>,
    any_env: bool,
) -> Word {
    let (name, shown) = match &a.name {
        ast::AssignmentName::VariableName(n) => (n.as_str(), n.clone()),
        ast::AssignmentName::ArrayElementName(n, sub) => {
            subscript(cx, fr, sub, h);
            (n.as_str(), format!("{n}[{sub}]"))
        }
    };
    let (value, is_static) = match &a.value {
        ast::AssignmentValue::Scalar(w) => {
            let w = word(cx, fr, &w.value, h);
            (w.text, w.is_static)
        }
        ast::AssignmentValue::Array(items) => {
            let mut parts = Vec::new();
            let mut is_static = true;
            for (key, value) in items {
                if let Some(key) = key {
                    let k = word(cx, fr, &key.value, h);
                    if !(k.is_static && subscript_is_literal(&k.text)) {
                        note(
                            h,
                            format!("array subscript `{}` may run commands", show(&k.text)),
                        );
                    }
                }
                for w in expand_word(cx, fr, &value.value, h) {
                    is_static &= w.is_static;
                    parts.push(w.text);
                }
            }
            (format!("({})", parts.join(" ")), is_static)
        }
    };
    // Before a program that takes any variable, as the certain subset reads it.
    if is_dangerous_var(name) && !(any_env && given_any_program(name, &value)) {
        note(h, format!("assignment to `{name}` can change what runs"));
    }
    let op = if a.append { "+=" } else { "=" };
    Word {
        text: format!("{shown}{op}{value}"),
        is_static,
        pattern: false,
    }
}

fn redirect_list(cx: &mut Cx, fr: &Frame, list: Option<&ast::RedirectList>, d: usize) {
    let mut h = None;
    for r in list.iter().flat_map(|l| l.0.iter()) {
        redirect(cx, fr, r, &mut h, d);
    }
    if let Some(h) = h {
        cx.line_opaque(h);
    }
}

fn redirect(cx: &mut Cx, fr: &Frame, r: &ast::IoRedirect, h: &mut Option<String>, d: usize) {
    match r {
        ast::IoRedirect::File(_, _, target) => match target {
            ast::IoFileRedirectTarget::Filename(w) => {
                let w = word(cx, fr, &w.value, h);
                cx.redirect_to(w.text);
            }
            ast::IoFileRedirectTarget::Fd(_) => {}
            ast::IoFileRedirectTarget::ProcessSubstitution(_, sub) => {
                cx.out.concurrent = true;
                cx.isolated(|cx| compound_list(cx, fr, &sub.list, d + 1, None));
            }
            ast::IoFileRedirectTarget::Duplicate(w) => {
                // `>&word` with a word that is not a descriptor is `&>word`; bash
                // evaluates an expanded one as arithmetic.
                let w = word(cx, fr, &w.value, h);
                if !w.is_static {
                    note(
                        h,
                        format!("descriptor `{}` may run commands", show(&w.text)),
                    );
                }
                let fd = w.is_static && {
                    let t = w.text.strip_suffix('-').unwrap_or(&w.text);
                    t.chars().all(|c| c.is_ascii_digit())
                };
                if !fd {
                    cx.redirect_to(w.text);
                }
            }
        },
        ast::IoRedirect::HereDocument(_, doc) => {
            if doc.requires_expansion {
                heredoc(cx, fr, &doc.doc.value, h);
            }
        }
        ast::IoRedirect::HereString(_, w) => {
            word(cx, fr, &w.value, h);
        }
        ast::IoRedirect::OutputAndError(w, _) => {
            let w = word(cx, fr, &w.value, h);
            cx.redirect_to(w.text);
        }
    }
}
