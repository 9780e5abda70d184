//! `Authentication-Results` (RFC 8601), read as far as pbem trusts it: the
//! authserv-id, and whether DMARC passed for the domain of the mail's From
//! (`dmarc=pass header.from=evil.example` passed for a From of
//! another domain, and `reason="x; dmarc=pass"` passed because the header
//! was split on every `;`).

/// One result: `dmarc=pass header.from=example.org`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ResInfo {
    /// The method, lower case (`dmarc`, `spf`, `dkim`).
    pub method: String,
    /// The result, lower case (`pass`, `fail`).
    pub result: String,
    /// `ptype.property` (lower case) and value, in order.
    pub props: Vec<(String, String)>,
}

/// A parsed header: the authserv-id and its results.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AuthResults {
    pub authserv_id: String,
    pub results: Vec<ResInfo>,
}

/// The header's text without comments (`(...)`, nested, outside quoted
/// strings), split on the `;` that stand outside quoted strings, each
/// part's tokens with quoted strings unquoted.
fn parts(header: &str) -> Vec<Vec<String>> {
    let mut parts = vec![Vec::new()];
    let mut token = String::new();
    let mut depth = 0usize;
    let mut quoted = false;
    let mut chars = header.chars();
    let end_token = |token: &mut String, parts: &mut Vec<Vec<String>>| {
        if !token.is_empty()
            && let Some(p) = parts.last_mut()
        {
            p.push(std::mem::take(token));
        }
    };
    while let Some(c) = chars.next() {
        match c {
            '\\' if quoted || depth > 0 => {
                if let Some(n) = chars.next()
                    && depth == 0
                {
                    token.push(n);
                }
            }
            '"' if depth == 0 => quoted = !quoted,
            _ if quoted => token.push(c),
            '(' => depth += 1,
            ')' if depth > 0 => depth -= 1,
            _ if depth > 0 => {}
            ';' => {
                end_token(&mut token, &mut parts);
                parts.push(Vec::new());
            }
            c if c.is_whitespace() => end_token(&mut token, &mut parts),
            // `a = b` is `a=b`.
            '=' => {
                if token.is_empty()
                    && let Some(last) = parts.last_mut().and_then(|p| p.pop())
                {
                    token = last;
                }
                token.push('=');
                // The value follows, perhaps after spaces.
                let rest: String = chars.clone().take_while(|c| c.is_whitespace()).collect();
                for _ in 0..rest.chars().count() {
                    chars.next();
                }
            }
            c => token.push(c),
        }
    }
    end_token(&mut token, &mut parts);
    parts
}

/// Reads one `Authentication-Results` header; `None` when it has no
/// authserv-id.
pub fn parse(header: &str) -> Option<AuthResults> {
    let mut parts = parts(header).into_iter();
    let authserv_id = parts.next()?.into_iter().next()?;
    let mut results = Vec::new();
    for part in parts {
        let mut tokens = part.into_iter();
        let Some((method, result)) = tokens.next().and_then(|t| {
            let (m, r) = t.split_once('=')?;
            Some((m.to_ascii_lowercase(), r.to_ascii_lowercase()))
        }) else {
            continue;
        };
        let props = tokens
            .filter_map(|t| {
                let (k, v) = t.split_once('=')?;
                Some((k.to_ascii_lowercase(), v.to_string()))
            })
            .collect();
        results.push(ResInfo {
            method,
            result,
            props,
        });
    }
    Some(AuthResults {
        authserv_id,
        results,
    })
}

/// Whether `header`, written by the trusted server `authserv`, says DMARC
/// passed for `from_domain`: a `dmarc=pass` result whose `header.from` is
/// that domain (RFC 7489 section 11.2).
pub fn dmarc_passed(header: &str, authserv: &str, from_domain: &str) -> bool {
    parse(header).is_some_and(|a| {
        a.authserv_id.eq_ignore_ascii_case(authserv)
            && a.results.iter().any(|r| {
                r.method == "dmarc"
                    && r.result == "pass"
                    && r.props
                        .iter()
                        .any(|(k, v)| k == "header.from" && v.eq_ignore_ascii_case(from_domain))
            })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dmarc_passes_only_for_the_from_domain() {
        let ok = "mx.example.net; spf=pass smtp.mailfrom=example.org; dmarc=pass (p=none) header.from=example.org";
        assert!(dmarc_passed(ok, "mx.example.net", "example.org"));
        assert!(dmarc_passed(ok, "MX.example.net", "EXAMPLE.org"));
        // Another domain's pass is not this From's.
        assert!(!dmarc_passed(ok, "mx.example.net", "evil.example"));
        let other = "mx.example.net; dmarc=pass header.from=evil.example";
        assert!(!dmarc_passed(other, "mx.example.net", "example.org"));
        // A `;` inside a quoted string or a comment is no separator.
        for h in [
            "mx.example.net; spf=fail reason=\"x; dmarc=pass header.from=example.org\"",
            "mx.example.net; spf=fail (x; dmarc=pass header.from=example.org)",
            "mx.example.net (comment; dmarc=pass header.from=example.org); spf=pass",
        ] {
            assert!(!dmarc_passed(h, "mx.example.net", "example.org"), "{h}");
        }
        // No property: no pass.
        assert!(!dmarc_passed(
            "mx.example.net; dmarc=pass",
            "mx.example.net",
            "example.org"
        ));
        assert!(!dmarc_passed(ok, "other.example.net", "example.org"));
        // Spaces around `=`, a version after the id, a quoted value.
        let spaced = "mx.example.net 1; dmarc = pass header.from = \"example.org\"";
        assert!(dmarc_passed(spaced, "mx.example.net", "example.org"));
        for junk in ["", ";", "(", "\"", "=;=", "a; =pass"] {
            let _ = parse(junk);
            assert!(!dmarc_passed(junk, "mx.example.net", "example.org"));
        }
    }
}
