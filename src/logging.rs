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
    let mut s = event.to_string();
    for (k, v) in fields {
        let _ = write!(s, " {k}={}", value(&v.to_string()));
    }
    s
}

/// A logfmt value: bare when it is one plain word, else quoted with `"`
/// and `\` escaped and line breaks written as `\n`.
pub fn value(v: &str) -> String {
    let plain = !v.is_empty()
        && v.chars()
            .all(|c| !c.is_whitespace() && !c.is_control() && c != '"' && c != '=' && c != '\\');
    if plain {
        return v.to_string();
    }
    let mut q = String::with_capacity(v.len() + 2);
    q.push('"');
    for c in v.chars() {
        match c {
            '"' => q.push_str("\\\""),
            '\\' => q.push_str("\\\\"),
            '\n' => q.push_str("\\n"),
            '\r' => q.push_str("\\r"),
            c if c.is_control() => {
                let _ = write!(q, "\\u{{{:x}}}", c as u32);
            }
            c => q.push(c),
        }
    }
    q.push('"');
    q
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
