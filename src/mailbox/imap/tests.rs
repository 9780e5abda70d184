//! Unit tests of the IMAP source: its settings, names, TLS set-up and
//! the exchanges before STARTTLS.

use super::*;

fn config() -> ImapConfig {
    toml::from_str(
        r#"host = "127.0.0.1"
           user = "pbem"
           password_file = "pw""#,
    )
    .unwrap()
}

#[test]
fn names_round_trip() {
    assert_eq!(parse_name("imap:17:4021"), Some((17, 4021)));
    assert_eq!(parse_name("new/17:4021"), None);
    assert_eq!(parse_name("imap:x:1"), None);
}

#[test]
fn defaults_and_validation() {
    let c = config();
    assert_eq!(
        (c.security, c.port(), c.folder.as_str()),
        (Security::Starttls, 143, "INBOX")
    );
    assert!(c.validate("inbox.imap").is_ok());
    let mut plain = c.clone();
    plain.security = Security::Plain;
    assert!(plain.validate("inbox.imap").is_ok(), "plain on loopback");
    plain.host = "imap.example.org".into();
    let e = plain.validate("inbox.imap").unwrap_err().to_string();
    assert!(
        e.contains("inbox.imap.security") && e.contains("starttls"),
        "{e}"
    );
    let mut none = c.clone();
    none.password_file = None;
    let e = none.validate("inbox.imap").unwrap_err().to_string();
    assert!(e.contains("password_file"), "{e}");
    let mut same = c.clone();
    same.processed_folder = Some("INBOX".into());
    assert!(
        same.validate("inbox.imap")
            .unwrap_err()
            .to_string()
            .contains("processed_folder")
    );
    let mut tls = c;
    tls.security = Security::Tls;
    assert_eq!(tls.port(), 993);
}

#[test]
fn the_password_is_never_printed() {
    let mut c = config();
    c.password = Some(Secret("hunter2".into()));
    assert!(!format!("{c:?}").contains("hunter2"));
    assert!(!c.describe().contains("hunter2"));
}

#[test]
fn loopback_hosts() {
    for h in ["localhost", "127.0.0.1", "127.1.2.3", "::1", "[::1]"] {
        assert!(is_loopback(h), "{h}");
    }
    for h in ["example.org", "10.0.0.1", "localhost.example.org"] {
        assert!(!is_loopback(h), "{h}");
    }
}

#[test]
fn a_closed_port_is_a_connect_error_naming_the_settings() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut c = config();
    c.port = Some(port);
    c.password = Some(Secret("x".into()));
    c.password_file = None;
    let e = Imap::new(c).select().unwrap_err().to_string();
    assert!(
        e.contains("cannot connect") && e.contains("inbox.imap.port"),
        "{e}"
    );
}
