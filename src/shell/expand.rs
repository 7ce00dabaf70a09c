//! Words: quote removal, brace expansion, and the command lines nested in words
//! (`$(...)`, backticks, parameter expansion operands, arithmetic, here-documents).

use super::state::{note, Cx, Frame, BRACE_LIMIT, MAX_BRACES_IN_WORD, MAX_EXPANDED_WORDS};
use super::word::{arith_is_literal, expand_braces, show, subscript_is_literal, unbackquote, Word};
use super::MAX_DEPTH;
use brush_parser::word::{self as bw, BraceExpressionOrText, WordPiece, WordPieceWithSource};

/// SRC as the words it becomes after brace expansion.
pub(crate) fn expand_word(cx: &mut Cx, fr: &Frame, src: &str, h: &mut Option<String>) -> Vec<Word> {
    if src.contains('{') && src.contains('}') {
        // Each word brace expansion is tried on costs a parse, which grows with its
        // braces: that many of the line's expanded words.
        let braces = src.matches('{').count();
        if braces > MAX_BRACES_IN_WORD || cx.words_left < braces {
            let why = match braces > MAX_BRACES_IN_WORD {
                false => format!("brace expansion past {MAX_EXPANDED_WORDS} words in one line"),
                true => format!("too many braces in `{}`", show(src)),
            };
            note(h, why.clone());
            note(&mut cx.out.unexpanded, why);
            let mut w = word(cx, fr, src, h);
            w.pattern = true;
            return vec![w];
        }
        cx.words_left -= braces;
        if let Ok(Some(pieces)) = bw::parse_brace_expansions(src, &cx.opts) {
            if pieces
                .iter()
                .any(|p| matches!(p, BraceExpressionOrText::Expr(_)))
            {
                match expand_braces(&pieces, BRACE_LIMIT) {
                    Some(list) if list.len() <= cx.words_left => {
                        cx.words_left -= list.len();
                        return list
                            .iter()
                            .map(|s| {
                                let mut w = word(cx, fr, s, h);
                                w.pattern = true;
                                w
                            })
                            .collect();
                    }
                    _ => {
                        let why = format!("brace expansion `{}` is too large", show(src));
                        note(h, why.clone());
                        note(&mut cx.out.unexpanded, why);
                    }
                }
            }
        }
    }
    vec![word(cx, fr, src, h)]
}

/// SRC as one word: quotes removed, nested commands added to CX, hazards noted in H.
pub(crate) fn word(cx: &mut Cx, fr: &Frame, src: &str, h: &mut Option<String>) -> Word {
    if !afford(cx, src) {
        return Word {
            text: src.to_owned(),
            is_static: false,
            pattern: true,
        };
    }
    match bw::parse(src, &cx.opts) {
        Ok(pieces) => {
            let mut w = Word::literal("");
            pieces_into(cx, fr, src, &pieces, false, &mut w, h);
            w
        }
        Err(_) => {
            cx.line_opaque(format!("cannot read word `{}`", show(src)));
            Word {
                text: src.to_owned(),
                is_static: false,
                pattern: true,
            }
        }
    }
}

/// Whether the word parser may read TEXT within the line's parse budget (see
/// [`Budget::spend_word`](super::state::Budget::spend_word)); if not, the line is
/// truncated.
fn afford(cx: &mut Cx, text: &str) -> bool {
    match cx.parse_budget.spend_word(text) {
        Ok(()) => true,
        Err(why) => {
            cx.truncate(why);
            false
        }
    }
}

pub(crate) fn pieces_into(
    cx: &mut Cx,
    fr: &Frame,
    src: &str,
    pieces: &[WordPieceWithSource],
    quoted: bool,
    w: &mut Word,
    h: &mut Option<String>,
) {
    for p in pieces {
        let raw = src.get(p.start_index..p.end_index).unwrap_or("");
        match &p.piece {
            WordPiece::Text(t) => {
                if !quoted && super::word::has_pattern_chars(t) {
                    w.pattern = true;
                }
                w.text.push_str(t);
            }
            WordPiece::SingleQuotedText(t) => w.text.push_str(t),
            WordPiece::AnsiCQuotedText(t) => w.text.push_str(&super::word::ansi_c(t)),
            WordPiece::DoubleQuotedSequence(inner)
            | WordPiece::GettextDoubleQuotedSequence(inner) => {
                pieces_into(cx, fr, src, inner, true, w, h);
            }
            WordPiece::TildeExpansion(_) => w.text.push_str(raw),
            WordPiece::EscapeSequence(e) => {
                let mut chars = e.chars();
                let _backslash = chars.next();
                let rest = chars.as_str();
                if rest == "\n" {
                    // A line continuation.
                } else if !quoted || matches!(rest, "$" | "`" | "\"" | "\\") {
                    w.text.push_str(rest);
                } else {
                    w.text.push_str(e);
                }
            }
            WordPiece::ParameterExpansion(pe) => {
                w.is_static = false;
                w.text.push_str(raw);
                parameter(cx, fr, pe, h);
            }
            WordPiece::CommandSubstitution(inner) => {
                w.is_static = false;
                w.text.push_str(raw);
                cx.isolated(|cx| cx.read(&fr.deeper(), inner));
            }
            WordPiece::BackquotedCommandSubstitution(_) => {
                w.is_static = false;
                w.text.push_str(raw);
                match raw.strip_prefix('`').and_then(|r| r.strip_suffix('`')) {
                    Some(body) => {
                        let body = unbackquote(body, quoted);
                        cx.isolated(|cx| cx.read(&fr.deeper(), &body));
                    }
                    None => cx.line_opaque(format!("cannot read `{}`", show(raw))),
                }
            }
            WordPiece::ArithmeticExpression(e) => {
                w.is_static = false;
                w.text.push_str(raw);
                arith(cx, fr, &e.value, h, true);
            }
        }
    }
}

/// A parameter expansion: the words inside it, and the forms that evaluate code.
pub(crate) fn parameter(cx: &mut Cx, fr: &Frame, pe: &bw::ParameterExpr, h: &mut Option<String>) {
    use bw::ParameterExpr as P;
    let mut inner: Vec<&String> = Vec::new();
    let (param, indirect) = match pe {
        P::Parameter {
            parameter,
            indirect,
        }
        | P::ParameterLength {
            parameter,
            indirect,
        } => (parameter, *indirect),
        P::UseDefaultValues {
            parameter,
            indirect,
            default_value,
            ..
        }
        | P::AssignDefaultValues {
            parameter,
            indirect,
            default_value,
            ..
        } => {
            inner.extend(default_value);
            (parameter, *indirect)
        }
        P::IndicateErrorIfNullOrUnset {
            parameter,
            indirect,
            error_message,
            ..
        } => {
            inner.extend(error_message);
            (parameter, *indirect)
        }
        P::UseAlternativeValue {
            parameter,
            indirect,
            alternative_value,
            ..
        } => {
            inner.extend(alternative_value);
            (parameter, *indirect)
        }
        P::RemoveSmallestSuffixPattern {
            parameter,
            indirect,
            pattern,
        }
        | P::RemoveLargestSuffixPattern {
            parameter,
            indirect,
            pattern,
        }
        | P::RemoveSmallestPrefixPattern {
            parameter,
            indirect,
            pattern,
        }
        | P::RemoveLargestPrefixPattern {
            parameter,
            indirect,
            pattern,
        }
        | P::UppercaseFirstChar {
            parameter,
            indirect,
            pattern,
        }
        | P::UppercasePattern {
            parameter,
            indirect,
            pattern,
        }
        | P::LowercaseFirstChar {
            parameter,
            indirect,
            pattern,
        }
        | P::LowercasePattern {
            parameter,
            indirect,
            pattern,
        } => {
            inner.extend(pattern);
            (parameter, *indirect)
        }
        P::Substring {
            parameter,
            indirect,
            offset,
            length,
        } => {
            arith(cx, fr, &offset.value, h, false);
            if let Some(l) = length {
                arith(cx, fr, &l.value, h, false);
            }
            (parameter, *indirect)
        }
        P::Transform {
            parameter,
            indirect,
            op,
        } => {
            if matches!(op, bw::ParameterTransformOp::PromptExpand) {
                note(h, "prompt expansion `${...@P}` may run commands");
            }
            (parameter, *indirect)
        }
        P::ReplaceSubstring {
            parameter,
            indirect,
            pattern,
            replacement,
            ..
        } => {
            inner.push(pattern);
            inner.extend(replacement);
            (parameter, *indirect)
        }
        P::VariableNames { .. } | P::MemberKeys { .. } => return,
    };
    if indirect {
        note(h, "indirect expansion `${!...}` may run commands");
    }
    if let bw::Parameter::NamedWithIndex { index, .. } = param {
        subscript(cx, fr, index, h);
    }
    if inner.is_empty() {
        return;
    }
    let deeper = fr.deeper();
    if deeper.depth > MAX_DEPTH {
        cx.line_opaque(format!("nested more than {MAX_DEPTH} levels deep"));
        return;
    }
    for s in inner {
        word(cx, &deeper, s, h);
    }
}

/// Arithmetic TEXT. AS_COMMAND: it is `((...))` or `$((...))`, which bash reads as
/// nested subshells when it does not close as arithmetic (`((cmd) )`); brush-parser
/// may not draw that line where bash does, so commands are also looked for in TEXT.
pub(crate) fn arith(cx: &mut Cx, fr: &Frame, text: &str, h: &mut Option<String>, as_command: bool) {
    if !arith_is_literal(text) {
        note(
            h,
            format!(
                "arithmetic `{}` may run commands through variables",
                show(text)
            ),
        );
    }
    let deeper = fr.deeper();
    if deeper.depth > MAX_DEPTH {
        cx.line_opaque(format!("nested more than {MAX_DEPTH} levels deep"));
        return;
    }
    if text.contains(['$', '`']) && afford(cx, text) {
        match bw::parse(text, &cx.opts) {
            Ok(pieces) => {
                let mut sink = Word::literal("");
                pieces_into(cx, &deeper, text, &pieces, true, &mut sink, h);
            }
            Err(_) => cx.line_opaque(format!("cannot read arithmetic `{}`", show(text))),
        }
    }
    if as_command && looks_like_command(text) {
        // A guess for deny rules: its commands are kept (opaque), its verdict is not.
        let mut guess = cx.fresh();
        guess.parse_budget = cx.parse_budget;
        guess.read(&deeper, text);
        cx.parse_budget = guess.parse_budget;
        let from = cx.out.commands.len();
        for c in guess.out.commands {
            cx.push(c);
        }
        cx.mark_since(from, &Some("may be a subshell inside `((...))`".into()));
        cx.out.redirects.extend(guess.out.redirects);
    }
}

/// Arithmetic TEXT that reads like a command: a name, then blanks and more.
pub(crate) fn looks_like_command(text: &str) -> bool {
    // brush-parser reads `( ( cmd ) )` as `(( ( cmd ) ))`.
    let text = text.trim_start_matches(|c: char| c == '(' || c.is_ascii_whitespace());
    let Some((first, _)) = text.split_once(|c: char| c.is_ascii_whitespace()) else {
        return false;
    };
    first
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '/' || c == '.' || c == '_')
        && first
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_./-".contains(c))
}

/// An unquoted here-document body, which undergoes expansion.
pub(crate) fn heredoc(cx: &mut Cx, fr: &Frame, body: &str, h: &mut Option<String>) {
    if !afford(cx, body) {
        return;
    }
    match bw::parse_heredoc(body, &cx.opts) {
        Ok(pieces) => {
            let mut sink = Word::literal("");
            pieces_into(cx, fr, body, &pieces, true, &mut sink, h);
        }
        Err(_) => cx.line_opaque("cannot read here-document"),
    }
}

/// An array subscript, which bash evaluates as arithmetic.
pub(crate) fn subscript(cx: &mut Cx, fr: &Frame, sub: &str, h: &mut Option<String>) {
    if !subscript_is_literal(sub) {
        note(
            h,
            format!("array subscript `{}` may run commands", show(sub)),
        );
        if sub.contains(['$', '`']) {
            arith(cx, fr, sub, h, false);
        }
    }
}
