//! The `Authentication-Results` reader (src/mail/authres.rs) on any text.
//! Invariants: nothing panics; what it reads is what `dmarc_passed`
//! trusts (a pass for exactly the `header.from` domains of its `dmarc=pass`
//! results, under its authserv-id); methods, results and property names
//! come out in lower case; and the text put inside a quoted string or a
//! comment of another header never makes a result of its own
//! (`reason="x; dmarc=pass"` once passed), while a quoted value reads back as it
//! was written.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pbem::mail::authres::{self, ResInfo, dmarc_passed};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let text = text.as_ref();

    if let Some(a) = authres::parse(text) {
        assert!(!a.authserv_id.is_empty(), "{text:?}");
        for r in &a.results {
            assert_eq!(r.method, r.method.to_ascii_lowercase(), "{text:?}");
            assert_eq!(r.result, r.result.to_ascii_lowercase(), "{text:?}");
            for (k, _) in &r.props {
                assert_eq!(*k, k.to_ascii_lowercase(), "{text:?}");
            }
        }
        let passes: Vec<&str> = a
            .results
            .iter()
            .filter(|r| r.method == "dmarc" && r.result == "pass")
            .flat_map(|r| r.props.iter())
            .filter(|(k, _)| k == "header.from")
            .map(|(_, v)| v.as_str())
            .collect();
        for d in &passes {
            assert!(dmarc_passed(text, &a.authserv_id, d), "{text:?} for {d}");
        }
        let other = "nowhere.invalid";
        assert_eq!(
            dmarc_passed(text, &a.authserv_id, other),
            passes.iter().any(|d| d.eq_ignore_ascii_case(other)),
            "{text:?}"
        );
    } else {
        assert!(!dmarc_passed(text, "mx.example.net", "example.org"));
    }

    // Inside a quoted string: one value, read back as written.
    let quoted = format!(
        "mx.example.net; spf=fail reason=\"{}\"",
        text.replace('\\', "\\\\").replace('"', "\\\"")
    );
    let a = authres::parse(&quoted).expect("an authserv-id");
    assert_eq!(a.authserv_id, "mx.example.net");
    assert_eq!(
        a.results,
        [ResInfo {
            method: "spf".into(),
            result: "fail".into(),
            props: vec![("reason".into(), text.to_string())],
        }],
        "{quoted:?}"
    );
    // Inside a comment: nothing at all.
    let commented = format!(
        "mx.example.net; spf=pass ({})",
        text.replace('\\', "\\\\")
            .replace('(', "\\(")
            .replace(')', "\\)")
    );
    let a = authres::parse(&commented).expect("an authserv-id");
    assert_eq!(
        a.results,
        [ResInfo {
            method: "spf".into(),
            result: "pass".into(),
            props: vec![],
        }],
        "{commented:?}"
    );
    assert!(!dmarc_passed(&quoted, "mx.example.net", "example.org"));
    assert!(!dmarc_passed(&commented, "mx.example.net", "example.org"));
});
