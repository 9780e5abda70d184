//! Made from the quote table's patterns by the test `the_gates_file_is_what_the_table_derives`
//! (src/mail/quotes/gate.rs): do not edit; `PBEM_REGENERATE=1 cargo test --lib gates_file` writes it.

use super::Kind;

/// Per kind: the literals every match begins with, and those it ends with.
#[rustfmt::skip]
pub(super) const GATES: &[(Kind, &[&str], &[&str])] = &[
    (Kind::Separator, &["--", "________", "anfang d", "begin do", "begin fo", "début d", "inicio d", "inizio m", "począte", "vidarebe", "viderese", "välitet", "нача"], &[]),
    (Kind::Signature, &["--", "__", "enviado ", "envoyé ", "gesendet", "get outl", "inviato ", "lähetet", "obtener ", "obter o ", "odeslán", "outlook ", "scarica ", "sendt fr", "sent fro", "skickat ", "téléch", "verstuur", "verzonde", "von mein", "wysłane", "наді", "отпр", "从我", "发自", "從我", "發自"], &["nderildi", "送信"]),
];
