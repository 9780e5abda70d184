//! Logs for the admin: one line per event on
//! standard error, `TIME LEVEL event key=value ...` (logfmt values, quoted
//! when they hold spaces), so that each mail's fate is one greppable line:
//!
//! ```text
//! 2026-11-20T10:00:00Z INFO  mail key=<m.1@example.org> from=alice@example.org replies=2 fate="bz-test1: black played 13-21"
//! ```
//!
//! The level filter is read from `PBEM_LOG`, else `RUST_LOG`, in the
//! `RUST_LOG` syntax (`warn`, `debug`, `pbem::poll=debug,info`); the
//! default is `info`. Times come from the one clock ([`crate::clock`]).

use std::fmt::Write as _;
use std::io::Write as _;

/// Starts the logger; harmless when called twice.
pub fn init() {
    let filter = std::env::var("PBEM_LOG")
        .or_else(|_| std::env::var("RUST_LOG"))
        .unwrap_or_else(|_| "info".into());
    let _ = env_logger::Builder::new()
        .parse_filters(&filter)
        .target(env_logger::Target::Stderr)
        .format(|buf, record| {
            writeln!(
                buf,
                "{} {:<5} {}",
                crate::clock::now().format("%Y-%m-%dT%H:%M:%SZ"),
                record.level(),
                record.args()
            )
        })
        .try_init();
}

/// `event key=value ...`, values quoted where logfmt needs it.
pub fn line(event: &str, fields: &[(&str, &dyn std::fmt::Display)]) -> String {
    let mut s = String::with_capacity(event.len() + 24 * fields.len());
    s.push_str(event);
    // Each value written once, into one buffer, then copied in as it is
    // or quoted.
    let mut v = String::new();
    for (k, val) in fields {
        v.clear();
        let _ = write!(v, "{val}");
        s.push(' ');
        s.push_str(k);
        s.push('=');
        push_value(&mut s, &v);
    }
    s
}

/// A logfmt value: bare when it is one plain word, else quoted with `"`
/// and `\` escaped and line breaks written as `\n`.
pub fn value(v: &str) -> String {
    let mut q = String::with_capacity(v.len() + 2);
    push_value(&mut q, v);
    q
}

/// Whether `v` is one plain word, written bare: no space, control
/// character, `"`, `=` or `\`.
fn plain(v: &str) -> bool {
    let bad = |c: char| c.is_whitespace() || c.is_control() || matches!(c, '"' | '=' | '\\');
    match v.is_ascii() {
        // In ASCII, what is above the space and not DEL, byte by byte.
        true => v
            .bytes()
            .all(|b| b > b' ' && b != 0x7f && !matches!(b, b'"' | b'=' | b'\\')),
        false => !v.chars().any(bad),
    }
}

/// [`value`] of `v`, onto `out`.
fn push_value(out: &mut String, v: &str) {
    if !v.is_empty() && plain(v) {
        return out.push_str(v);
    }
    out.push('"');
    for c in v.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_quoted_only_when_needed() {
        assert_eq!(value("alice@example.org"), "alice@example.org");
        assert_eq!(value("<m.1@x>"), "<m.1@x>");
        assert_eq!(value(""), "\"\"");
        assert_eq!(value("black played 13-21"), "\"black played 13-21\"");
        assert_eq!(value("say \"hi\"\n"), "\"say \\\"hi\\\"\\n\"");
        assert_eq!(value("a=b"), "\"a=b\"");
        assert_eq!(value("x\u{7}"), "\"x\\u{7}\"");
        assert_eq!(value("é\u{a0}x"), "\"é\u{a0}x\"", "a space beyond ASCII");
        assert_eq!(value("\u{7f}"), "\"\\u{7f}\"");
        // Plain, byte by byte or char by char, as the general rule says.
        let general = |v: &str| {
            v.chars()
                .all(|c| !c.is_whitespace() && !c.is_control() && !matches!(c, '"' | '=' | '\\'))
        };
        let mut all: Vec<String> = (0..=0x7f_u8).map(|b| format!("a{}", b as char)).collect();
        all.extend(["Ünï@x", "a\u{85}b", "\u{2028}", "x\u{3000}"].map(String::from));
        for v in &all {
            assert_eq!(plain(v), general(v), "{v:?}");
        }
    }

    #[test]
    fn a_line_is_the_event_then_its_fields() {
        let n = 2;
        assert_eq!(
            line(
                "mail",
                &[("from", &"a@b"), ("replies", &n), ("fate", &"refused: no")]
            ),
            "mail from=a@b replies=2 fate=\"refused: no\""
        );
    }
}
