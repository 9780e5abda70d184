//! The system calls of a pbem run as `strace -f -y` wrote them, read into
//! what they did to files and folders, in the order they returned (a call
//! that another thread interrupted is put back together from its
//! `<unfinished ...>` and `<... resumed>` halves, and counts where it
//! returned).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The calls strace is asked for: every way pbem makes, writes, moves,
/// removes or syncs a file or folder.
pub const CALLS: &str = "open,openat,creat,write,writev,pwrite64,pwritev,pwritev2,\
ftruncate,truncate,fallocate,copy_file_range,sendfile,rename,renameat,renameat2,\
link,linkat,symlink,symlinkat,unlink,unlinkat,mkdir,mkdirat,rmdir,\
fsync,fdatasync,syncfs,sync,sync_file_range";

/// What one call that worked did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Call {
    /// A file opened to be made or written: `create` with `O_CREAT` (made
    /// when it was not there), `truncate` with `O_TRUNC`.
    Open {
        path: PathBuf,
        create: bool,
        truncate: bool,
    },
    /// Data written to (or the length set of) the file open as `path`.
    Write {
        path: PathBuf,
    },
    Rename {
        from: PathBuf,
        to: PathBuf,
    },
    /// A new name (a link) or a new folder at `path`.
    Made {
        path: PathBuf,
    },
    Removed {
        path: PathBuf,
    },
    /// `fsync` or `fdatasync` of the file or folder open as `path`.
    Synced {
        path: PathBuf,
    },
    /// A sync of more than one file: `syncfs`, `sync`, `sync_file_range`.
    Broad {
        name: String,
        line: String,
    },
}

/// Reads a trace written by `strace -f -y -o FILE`.
///
/// # Panics
/// On a line it cannot read: the audit must not pass over a call.
pub fn read(trace: &str) -> Vec<Call> {
    let mut halves: HashMap<String, String> = HashMap::new();
    let mut calls = Vec::new();
    for line in trace.lines() {
        let (pid, rest) = line.trim_start().split_once(' ').unwrap_or((line, ""));
        let rest = rest.trim_start();
        if rest.starts_with("+++") || rest.starts_with("---") || rest.is_empty() {
            continue;
        }
        if let Some(first) = rest.strip_suffix("<unfinished ...>") {
            halves.insert(pid.to_string(), first.trim_end().to_string());
            continue;
        }
        let whole = match rest.strip_prefix("<... ") {
            Some(resumed) => {
                let (_, tail) = resumed
                    .split_once(" resumed>")
                    .unwrap_or_else(|| panic!("a resumed call: {line}"));
                let first = halves
                    .remove(pid)
                    .unwrap_or_else(|| panic!("no first half of: {line}"));
                format!("{first}{tail}")
            }
            None => rest.to_string(),
        };
        if let Some(call) = call_of(&whole) {
            calls.push(call);
        }
    }
    calls
}

/// One whole call line (`name(args) = result`): what it did, `None` when
/// it failed or changed nothing.
fn call_of(line: &str) -> Option<Call> {
    let open = line.find('(')?;
    let name = &line[..open];
    // strace pads a resumed call's result: `<... x resumed>)      = 0`.
    let eq = line.rfind(" = ")?;
    let result = line[eq + 3..].trim_start();
    let args = line[..eq].trim_end().strip_suffix(')')?;
    if result.starts_with('-') || result.starts_with('?') {
        return None;
    }
    let args = split_args(&args[open + 1..]);
    let arg = |i: usize| args.get(i).map(String::as_str).unwrap_or("");
    let at = |dir: usize, name: usize| resolve(arg(dir), arg(name));
    let written = |i: usize| {
        Some(Call::Write {
            path: fd_path(arg(i))?,
        })
    };
    match name {
        "open" | "openat" | "creat" => {
            let (path, flags) = match name {
                "openat" => (at(0, 1), arg(2)),
                "creat" => (unquote(arg(0)).into(), "O_CREAT|O_TRUNC|O_WRONLY"),
                _ => (unquote(arg(0)).into(), arg(1)),
            };
            let writes = ["O_WRONLY", "O_RDWR", "O_CREAT", "O_TRUNC"];
            writes
                .iter()
                .any(|f| flags.contains(f))
                .then(|| Call::Open {
                    path,
                    create: flags.contains("O_CREAT"),
                    truncate: flags.contains("O_TRUNC"),
                })
        }
        "write" | "writev" | "pwrite64" | "pwritev" | "pwritev2" | "ftruncate" | "fallocate"
        | "sendfile" => written(0),
        "copy_file_range" => written(2),
        "truncate" => Some(Call::Write {
            path: unquote(arg(0)).into(),
        }),
        "rename" => Some(Call::Rename {
            from: unquote(arg(0)).into(),
            to: unquote(arg(1)).into(),
        }),
        "renameat" | "renameat2" => Some(Call::Rename {
            from: at(0, 1),
            to: at(2, 3),
        }),
        "mkdir" => Some(Call::Made {
            path: unquote(arg(0)).into(),
        }),
        "link" | "symlink" => Some(Call::Made {
            path: unquote(arg(1)).into(),
        }),
        "mkdirat" => Some(Call::Made { path: at(0, 1) }),
        "linkat" => Some(Call::Made { path: at(2, 3) }),
        "symlinkat" => Some(Call::Made { path: at(1, 2) }),
        "unlink" | "rmdir" => Some(Call::Removed {
            path: unquote(arg(0)).into(),
        }),
        "unlinkat" => Some(Call::Removed { path: at(0, 1) }),
        "fsync" | "fdatasync" => Some(Call::Synced {
            path: fd_path(arg(0))?,
        }),
        "syncfs" | "sync" | "sync_file_range" => Some(Call::Broad {
            name: name.to_string(),
            line: line.to_string(),
        }),
        _ => panic!("a call the audit does not know: {line}"),
    }
}

/// The arguments of a call, split at the commas between them (not those
/// in a string or a `<path>`).
fn split_args(args: &str) -> Vec<String> {
    let (mut out, mut cur) = (Vec::new(), String::new());
    let (mut quoted, mut escaped, mut depth) = (false, false, 0usize);
    for c in args.chars() {
        match c {
            _ if escaped => escaped = false,
            '\\' if quoted => escaped = true,
            '"' => quoted = !quoted,
            '<' | '[' | '{' if !quoted => depth += 1,
            '>' | ']' | '}' if !quoted => depth = depth.saturating_sub(1),
            ',' if !quoted && depth == 0 => {
                out.push(cur.trim().to_string());
                cur.clear();
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    if !cur.trim().is_empty() {
        out.push(cur.trim().to_string());
    }
    out
}

/// The path `-y` shows for a file descriptor (`5</data/x>`); `None` for
/// one that is not a file (a pipe, a socket) or a file removed since
/// (`(deleted)`).
fn fd_path(arg: &str) -> Option<PathBuf> {
    let inner = arg.split_once('<')?.1.strip_suffix('>')?;
    if inner.ends_with(" (deleted)") || !inner.starts_with('/') {
        return None;
    }
    Some(PathBuf::from(inner))
}

/// A path argument taken from the folder `dir` (an `AT_FDCWD</cwd>` or
/// `3</folder>`) when it is relative.
fn resolve(dir: &str, name: &str) -> PathBuf {
    let name = unquote(name);
    if Path::new(&name).is_absolute() {
        return PathBuf::from(name);
    }
    let base = fd_path(dir).unwrap_or_else(|| panic!("a relative path from {dir}: {name}"));
    base.join(name)
}

/// A C string as strace writes it, without its quotes and escapes.
fn unquote(arg: &str) -> String {
    let s = arg.trim_end_matches("...");
    let s = s.strip_prefix('"').and_then(|s| s.strip_suffix('"'));
    let s = s.unwrap_or_else(|| panic!("a path, quoted: {arg}"));
    let (mut out, mut chars) = (Vec::new(), s.chars());
    while let Some(c) = chars.next() {
        if c != '\\' {
            let mut b = [0; 4];
            out.extend_from_slice(c.encode_utf8(&mut b).as_bytes());
            continue;
        }
        match chars.next() {
            Some('x') => {
                let hex: String = chars.by_ref().take(2).collect();
                out.push(u8::from_str_radix(&hex, 16).expect("a \\x escape"));
            }
            Some('n') => out.push(b'\n'),
            Some('t') => out.push(b'\t'),
            Some(d @ '0'..='7') => {
                let more: String = chars
                    .clone()
                    .take_while(|c| c.is_digit(8))
                    .take(2)
                    .collect();
                for _ in 0..more.len() {
                    chars.next();
                }
                out.push(u8::from_str_radix(&format!("{d}{more}"), 8).expect("an octal escape"));
            }
            Some(other) => out.push(other as u8),
            None => {}
        }
    }
    String::from_utf8(out).expect("paths of UTF-8")
}

#[test]
fn a_trace_reads_into_what_each_call_did() {
    let trace = "\
12  openat(AT_FDCWD</w>, \"/d/tmp/.pbem-a.tmp\", O_RDWR|O_CREAT|O_EXCL|O_CLOEXEC, 0600) = 3</d/tmp/.pbem-a.tmp>
12  write(3</d/tmp/.pbem-a.tmp>, \"\"..., 10) = 10
12  openat(AT_FDCWD</w>, \"/d/games/x.toml\", O_RDONLY|O_CLOEXEC) = 4</d/games/x.toml>
13  fdatasync(3</d/tmp/.pbem-a.tmp> <unfinished ...>
12  unlinkat(5</d/outbox/staging/ab>, \"keys\", 0) = 0
13  <... fdatasync resumed>)          = 0
12  rename(\"/d/tmp/.pbem-a.tmp\", \"/d/games/x.toml\") = 0
12  mkdir(\"/d/due/20261125\", 0777) = -1 EEXIST (File exists)
12  unlink(\"/d/outbox/ready/b/made\") = -1 ENOENT (No such file or directory)
12  syncfs(3</d>) = 0
12  +++ exited with 0 +++
";
    assert_eq!(
        read(trace),
        [
            Call::Open {
                path: "/d/tmp/.pbem-a.tmp".into(),
                create: true,
                truncate: false
            },
            Call::Write {
                path: "/d/tmp/.pbem-a.tmp".into()
            },
            Call::Removed {
                path: "/d/outbox/staging/ab/keys".into()
            },
            Call::Synced {
                path: "/d/tmp/.pbem-a.tmp".into()
            },
            Call::Rename {
                from: "/d/tmp/.pbem-a.tmp".into(),
                to: "/d/games/x.toml".into()
            },
            Call::Broad {
                name: "syncfs".into(),
                line: "syncfs(3</d>) = 0".into()
            },
        ]
    );
}
