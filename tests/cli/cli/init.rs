//! `pbem init`'s options (tests/cli/cli.rs): `--data-root`, `--send` and
//! `--stdout`, with which the Debian package makes its
//! /etc/pbem/pbem.toml.

use super::*;

/// `--data-root DIR --send localhost` writes the commented file with its
/// folders under DIR and the replies sent over SMTP to this machine;
/// `--stdout` prints it and makes nothing; written to a file it is the
/// same text, and the folders are made where it says.
#[test]
fn init_writes_the_file_for_a_data_root_and_the_local_mail_server() {
    let o = pbem(&["init", "--stdout"], None);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(text(&o), pbem::config::INIT, "the default, as it is");

    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("state");
    let root_s = root.to_str().unwrap();
    let layout = ["--data-root", root_s, "--send", "localhost"];
    let o = pbem(&[&["init", "--stdout"][..], &layout].concat(), None);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let printed = text(&o);
    assert!(!root.exists(), "--stdout makes no folder");
    for line in [
        format!("data = \"{root_s}/data\"\n"),
        format!("maildir = \"{root_s}/mail/inbox\"\n"),
        format!("# folder = \"{root_s}/mail/sent\"\n"),
        "transport = \"smtp\"\nhost = \"127.0.0.1\"\nport = 25\nsecurity = \"none\"\n".into(),
    ] {
        assert!(printed.contains(&line), "{line:?} in:\n{printed}");
    }

    let config = dir.path().join("etc/pbem.toml");
    let config = config.to_str().unwrap();
    let o = pbem(&[&["init", "--config", config][..], &layout].concat(), None);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(std::fs::read_to_string(config).unwrap(), printed);
    assert!(root.join("data/games").is_dir() && root.join("mail/inbox/new").is_dir());
    let o = pbem(&["check", "--config", config], None);
    for what in ["data", "inbox"] {
        assert!(
            text(&o)
                .lines()
                .any(|l| l.starts_with(&format!("OK    {what}")) && l.contains(root_s)),
            "{what}: {}",
            text(&o)
        );
    }
}

/// A relative data root, an unknown --send, --stdout with --force: each
/// refused with the input quoted and what to give instead, and nothing
/// written.
#[test]
fn init_refuses_a_relative_data_root_and_an_unknown_send_with_a_hint() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("pbem.toml");
    let config = config.to_str().unwrap();
    let o = pbem(
        &["init", "--config", config, "--data-root", "var/lib/pbem"],
        None,
    );
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        err(&o),
        "pbem init: --data-root var/lib/pbem: not an absolute path; give the folder from /, \
         like --data-root /var/lib/pbem\n"
    );
    assert_eq!(text(&o), "");
    assert!(!std::path::Path::new(config).exists(), "nothing written");

    let o = pbem(&["init", "--send", "sendmail", "--stdout"], None);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        err(&o).contains("invalid value 'sendmail' for '--send <HOW>'")
            && err(&o).contains("[possible values: maildir, localhost]"),
        "{}",
        err(&o)
    );
    let o = pbem(&["init", "--stdout", "--force"], None);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("cannot be used with"), "{}", err(&o));

    let help = text(&pbem(&["init", "--help"], None));
    for word in ["--data-root <DIR>", "--send <HOW>", "localhost", "--stdout"] {
        assert!(help.contains(word), "{word} in:\n{help}");
    }
}
