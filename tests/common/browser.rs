//! Headless Chromium for the browser tests (the HTML part of
//! the mail, the web archive's pages). Those tests are
//! `#[ignore = "needs headless chromium"]`: a plain `cargo test` lists
//! them as ignored; `scripts/test` installs Debian's `chromium` and runs
//! them with `--include-ignored`, and a test that runs has been asked for,
//! so a missing browser fails it.

use std::path::Path;
use std::process::Command;

/// The Chromium binary; panics when it is missing: the test asking for it
/// was run on purpose.
pub fn chromium() -> &'static str {
    let found = Command::new("chromium")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        found,
        "the browser tests need headless Chromium, and `chromium` is missing: \
         install Debian's chromium (`apt-get install -y chromium`, as scripts/test does)"
    );
    "chromium"
}

/// `file` as a `file://` URL, with `hash` (`#p5`, or empty) after it.
pub fn file_url(file: &Path, hash: &str) -> String {
    format!("file://{}{hash}", file.display())
}

/// Runs headless `browser` on `url` with `args`; its standard output.
pub fn run(browser: &str, url: &str, args: &[&str]) -> Vec<u8> {
    // A profile of its own: browsers run side by side in the tests.
    let profile = tempfile::tempdir().unwrap();
    let out = Command::new(browser)
        .args([
            "--headless",
            "--disable-gpu",
            "--no-sandbox",
            "--hide-scrollbars",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .args(args)
        .arg(url)
        .output()
        .unwrap_or_else(|e| panic!("running {browser}: {e}"));
    assert!(
        out.status.success(),
        "{browser} {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// `html` without its `<style>` block, as a client that strips it (Gmail
/// for other accounts) shows it.
pub fn unstyled(html: &str) -> String {
    match (html.find("<style>"), html.find("</style>")) {
        (Some(a), Some(b)) => format!("{}{}", &html[..a], &html[b + "</style>".len()..]),
        _ => html.to_string(),
    }
}

/// `html` for an `<iframe srcdoc="...">`.
pub fn srcdoc(html: &str) -> String {
    html.replace('&', "&amp;").replace('"', "&quot;")
}

/// What the script of `page` reported once laid out, as JSON: the text
/// it left in its `<pre id="measured">`.
pub fn measured(browser: &str, page: &Path) -> serde_json::Value {
    let dom = String::from_utf8(run(
        browser,
        &file_url(page, ""),
        &["--virtual-time-budget=10000", "--dump-dom"],
    ))
    .unwrap();
    let json = dom
        .split("<pre id=\"measured\">")
        .nth(1)
        .and_then(|s| s.split("</pre>").next())
        .unwrap_or_else(|| panic!("the measuring script of {} did not report", page.display()));
    let json = json
        .replace("&quot;", "\"")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&");
    serde_json::from_str(&json).unwrap()
}
