//! The installed systemd unit, read as systemd reads the few keys the
//! test uses: the `[Service]` section's User=, Group=, Environment= and
//! ExecStart=.

use std::path::Path;

/// The unit file as installed.
pub struct Unit {
    pub text: String,
}

/// Where the package may put the unit (with and without the merged /usr).
const PLACES: &[&str] = &[
    "/usr/lib/systemd/system/pbem.service",
    "/lib/systemd/system/pbem.service",
];

/// The installed pbem.service.
pub fn installed() -> Unit {
    let path = PLACES
        .iter()
        .map(Path::new)
        .find(|p| p.is_file())
        .unwrap_or_else(|| panic!("no pbem.service in {PLACES:?}"));
    Unit {
        text: std::fs::read_to_string(path).unwrap(),
    }
}

impl Unit {
    /// The values of `key=` in `[Service]`, in order.
    fn values<'a>(&'a self, key: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        let mut section = "";
        self.text.lines().filter_map(move |line| {
            let line = line.trim();
            if line.starts_with('[') {
                section = line;
                return None;
            }
            let (k, v) = line.split_once('=')?;
            (section == "[Service]" && !line.starts_with('#') && k.trim() == key)
                .then_some(v.trim())
        })
    }

    /// The one value of `key=` in `[Service]`.
    pub fn service<'a>(&'a self, key: &'a str) -> Option<&'a str> {
        let values: Vec<&str> = self.values(key).collect();
        assert!(values.len() <= 1, "{key}= is set {} times", values.len());
        values.first().copied()
    }

    /// ExecStart= split into the program and its arguments. The test runs
    /// it without a shell, as systemd does: a line with quotes, `$` or a
    /// prefix such as `-` or `@` would need systemd's own rules, which
    /// the test does not copy.
    pub fn exec_start(&self) -> Vec<String> {
        let line = self.service("ExecStart").expect("the unit has ExecStart=");
        assert!(
            !line.contains(['"', '\'', '$', '\\', '%']) && line.starts_with('/'),
            "ExecStart={line}: plain words from an absolute path, as this test runs it"
        );
        line.split_whitespace().map(str::to_string).collect()
    }

    /// Environment= as (name, value) pairs.
    pub fn environment(&self) -> Vec<(String, String)> {
        self.values("Environment")
            .flat_map(str::split_whitespace)
            .filter_map(|kv| kv.split_once('='))
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }
}
