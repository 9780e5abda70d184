//! How pbem names people to people: one function, [`public_name`] (with
//! what pbem learnt of them, [`known_name`]), for every subject,
//! salutation, table, page and listing, so that one person has one name
//! everywhere; times as the reader reads them
//! ([`Adjudicator::time_for`]); and the nearest of a list of names
//! ([`nearest`]), for a name mistyped.

use super::desk::Facts;
use super::{Adjudicator, Result};
use crate::mail::inbound::Inbound;
use crate::reply::{Identity, address_of, display_name, mailbox};
use chrono::{DateTime, Utc};

/// The longest display name pbem keeps of a player's mail, in bytes (a
/// name is untrusted: what is kept of it is bounded).
const MAX_KEPT_NAME: usize = 256;

/// A person as pbem names them to others and to themselves: pbem's bot
/// as `pbem's bot (level 2)`; anyone else by their display name, or
/// before one is known the local part of their address (`bob` for
/// `bob@example.org`), never the address (see [`untrusted_name`]).
/// Where an address is the point (a `To`, "write to …") the address is
/// written, not this.
pub fn public_name(me: &Identity, mailbox: &str) -> String {
    match me.bot_level(mailbox) {
        Some(level) => format!("{}'s bot (level {})", me.name, level.number()),
        None => untrusted_name(mailbox),
    }
}

/// A person as pbem names them where it can read what it learnt of
/// them: as [`public_name`] names `who` ("Name <address>") when it holds
/// a name (the one given at entry stays theirs), else by the name of
/// their latest proven mail ([`Adjudicator::learn_name`]) once they gave
/// one. Every place that names a person to people, with the data folder
/// at hand, names them by this.
pub fn known_name(facts: &dyn Facts, me: &Identity, who: &str) -> String {
    let address = address_of(who);
    // A bare address in lower case names no one but its own.
    let named = who != address && untrusted_name(who) != untrusted_name(&address);
    if named || me.bot_level(who).is_some() {
        return public_name(me, who);
    }
    // Advisory: a player file that does not read names no one.
    match facts.player(&address).ok().and_then(|p| p.name) {
        Some(name) => public_name(me, &mailbox(Some(&name), &address)),
        None => public_name(me, who),
    }
}

impl Adjudicator<'_> {
    /// `at` as `reader` ("Name <address>" or an address) reads times: in
    /// the zone they set with `timezone`, else the server's.
    pub(super) fn time_for(&self, reader: &str, at: DateTime<Utc>) -> Result<String> {
        let zone = self.desk.player(&address_of(reader))?.zone;
        Ok(crate::timecontrol::format_deadline(at, zone))
    }

    /// `who` as [`known_name`] names them.
    pub(super) fn name_of(&self, who: &str) -> String {
        known_name(&self.desk, self.identity, who)
    }

    /// Keeps the display name of `mail`, from `from`, whose mail proved
    /// the address (their key, or DMARC): pbem names them by it from now
    /// on. A mail without a name leaves the last one.
    pub(super) fn learn_name(&self, from: &str, mail: &Inbound) -> Result<()> {
        let Some(name) = mail.from_name.as_deref().map(str::trim) else {
            return Ok(());
        };
        if name.is_empty() || self.identity.bot_level(from).is_some() {
            return Ok(());
        }
        let mut cut = name.len().min(MAX_KEPT_NAME);
        while !name.is_char_boundary(cut) {
            cut -= 1;
        }
        let name = &name[..cut];
        let mut player = self.desk.player(from)?;
        if player.name.as_deref() != Some(name) {
            player.name = Some(name.to_string());
            self.desk.write_player(&player)?;
        }
        Ok(())
    }
}

/// A player's own name for themselves, as others may see it: their
/// display name, or the local part of their address (`bob` for
/// `bob@example.org`), never the address. A display name is untrusted
/// text: one that holds an address in any form (`'bob@example.org'`, as
/// some mailers write the name, `Bob@Example.org`, `bob@example.org
/// (Bob)`, `x%40evil.test`, `x&#64;evil.test`, a full-width `＠`) is no
/// name; control and invisible formatting characters are dropped (they
/// could hide an `@` from this check, or turn text around), and the name
/// is cut to [`MAX_PUBLIC_NAME`] characters.
fn untrusted_name(mailbox: &str) -> String {
    const INVISIBLE: [std::ops::RangeInclusive<char>; 5] = [
        '\u{200B}'..='\u{200F}',
        '\u{202A}'..='\u{202E}',
        '\u{2060}'..='\u{2064}',
        '\u{2066}'..='\u{2069}',
        '\u{FEFF}'..='\u{FEFF}',
    ];
    let clean = |text: &str| -> String {
        // Printable ASCII, spaced by single spaces, is clean as it is.
        let plain = text.bytes().all(|b| b.is_ascii_graphic() || b == b' ')
            && !text.starts_with(' ')
            && !text.ends_with(' ')
            && !text.contains("  ");
        if plain {
            return text.to_string();
        }
        let kept: String = text
            .chars()
            .filter_map(|c| match c {
                c if c.is_whitespace() => Some(' '),
                c if c.is_control() || INVISIBLE.iter().any(|r| r.contains(&c)) => None,
                c => Some(c),
            })
            .collect();
        kept.split_whitespace().collect::<Vec<_>>().join(" ")
    };
    let address = address_of(mailbox);
    let name = clean(&display_name(mailbox));
    // An `@` in any spelling, with text before and after it: an address,
    // or enough of one to tell it.
    const FORMS: [&str; 9] = [
        "%40", "&#64;", "&#x40;", "&commat;", "＠", "﹫", "[at]", "(at)", "{at}",
    ];
    let at = crate::lines::lowercase(&name);
    // Looked for only in a name holding a byte some form begins with:
    // most names hold none, and each look builds a searcher.
    let may_hold = at
        .bytes()
        .any(|b| FORMS.iter().any(|f| f.as_bytes().first() == Some(&b)));
    // Each `replace` makes a new string: only for a form that is there.
    let at = if may_hold {
        std::borrow::Cow::Owned(FORMS.iter().fold(at.into_owned(), |s, form| {
            if s.contains(form) {
                s.replace(form, "@")
            } else {
                s
            }
        }))
    } else {
        at
    };
    let shaped = at.match_indices('@').any(|(i, _)| {
        at[..i].chars().any(char::is_alphanumeric) && at[i + 1..].chars().any(char::is_alphanumeric)
    });
    let shown = if name.is_empty() || shaped || name.eq_ignore_ascii_case(&address) {
        // The local part, without what wraps it or routes through it
        // (`alice%example.org@relay` names alice's own address).
        let local = address.split(['@', '%']).next().unwrap_or_default();
        let local = clean(local.trim_matches(|c: char| "'\"<>()[]{} ".contains(c)));
        if local.is_empty() {
            "a player".to_string()
        } else {
            local
        }
    } else {
        name
    };
    match shown.char_indices().nth(MAX_PUBLIC_NAME) {
        Some((cut, _)) => {
            let end = shown[..cut].char_indices().last().map_or(0, |(i, _)| i);
            format!("{}…", shown[..end].trim_end())
        }
        None => shown,
    }
}

/// The longest name [`public_name`] gives, in characters: a name is
/// untrusted, and every page and answer that shows it stays readable.
pub const MAX_PUBLIC_NAME: usize = 64;

/// The name among `names` nearest to `typed` (edit distance, in any
/// case), if one is near enough to be a slip: at most a third of the
/// typed name's letters wrong (at least one).
pub fn nearest<'a>(typed: &str, names: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let typed = typed.to_lowercase();
    let most = (typed.chars().count() / 3).max(1);
    names
        .into_iter()
        .map(|n| (edit_distance(&typed, &n.to_lowercase()), n))
        .filter(|(d, _)| *d <= most)
        .min_by_key(|(d, _)| *d)
        .map(|(_, n)| n)
}

/// The edit distance between `a` and `b`, in characters: letters put
/// in, left out, changed, or two side by side swapped (`cpu` for `cup`,
/// the commonest slip), each one edit.
fn edit_distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    // Three rows of the table: two back, one back, this one.
    let mut before: Vec<usize> = vec![0; b.len() + 1];
    let mut last: Vec<usize> = (0..=b.len()).collect();
    for i in 1..=a.len() {
        let mut row = vec![i; b.len() + 1];
        for j in 1..=b.len() {
            let change = usize::from(a[i - 1] != b[j - 1]);
            row[j] = (last[j] + 1).min(row[j - 1] + 1).min(last[j - 1] + change);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                row[j] = row[j].min(before[j - 2] + 1);
            }
        }
        before = std::mem::replace(&mut last, row);
    }
    last[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bot_is_named_by_its_level_and_people_never_by_address() {
        let me = Identity::at("pbem@example.net");
        assert_eq!(
            public_name(&me, "pbem+bot2@example.net"),
            "pbem's bot (level 2)"
        );
        assert_eq!(
            public_name(&me, "pbem bot, level 1 <pbem+bot1@example.net>"),
            "pbem's bot (level 1)"
        );
        // Someone else's +bot2 is no bot of pbem's.
        assert_eq!(public_name(&me, "x+bot2@evil.test"), "x+bot2");
        assert_eq!(public_name(&me, "Dave <dave@example.org>"), "Dave");
        assert_eq!(public_name(&me, "dave@example.org"), "dave");
    }

    #[test]
    fn a_mistyped_name_finds_the_nearest() {
        let names = ["spring-cup", "autumn-open", "winter"];
        assert_eq!(nearest("sprng-cup", names), Some("spring-cup"));
        assert_eq!(nearest("Autumn-Opne", names), Some("autumn-open"));
        assert_eq!(nearest("summer", names), None);
        assert_eq!(nearest("cpu", ["cup"]), Some("cup"));
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("", "abc"), 3);
    }

    #[test]
    fn a_name_that_holds_an_address_in_any_form_shows_the_local_part() {
        assert_eq!(
            untrusted_name("Ann Example <ann@example.org>"),
            "Ann Example"
        );
        for (mailbox, shown) in [
            ("bob@example.org", "bob"),
            ("<bob@example.org>", "bob"),
            ("'alice@example.org' <alice@example.org>", "alice"),
            ("\"'alice@example.org'\" <alice@example.org>", "alice"),
            ("Bob@Example.org <bob@example.org>", "bob"),
            ("carol@example.org (Carol)", "carol"),
            ("\"carol@example.org (Carol)\" <carol@example.org>", "carol"),
            ("Mallory <x@evil.test> <mallory@example.org>", "mallory"),
            ("\"Mallory (x@evil.test)\" <mallory@example.org>", "mallory"),
            ("dan%40example.org <dan@example.org>", "dan"),
            ("dan&#64;example.org <dan@example.org>", "dan"),
            ("dan＠example.org <dan@example.org>", "dan"),
            ("dan [at] example.org <dan@example.org>", "dan"),
            ("dan (AT) example.org <dan@example.org>", "dan"),
            ("dan{at}example.org <dan@example.org>", "dan"),
            ("dan﹫example.org <dan@example.org>", "dan"),
            ("dan&#x40;example.org <dan@example.org>", "dan"),
            ("dan&commat;example.org <dan@example.org>", "dan"),
            ("\"Ann  Example \" <ann@example.org>", "Ann Example"),
            ("\" Ann\u{A0}Example\" <ann@example.org>", "Ann Example"),
            ("dan\u{200B}@\u{200B}example.org <dan@example.org>", "dan"),
            ("eve%example.org@relay.test", "eve"),
            ("'frank@example.org'", "frank"),
            ("\"\" <gina@example.org>", "gina"),
        ] {
            assert_eq!(untrusted_name(mailbox), shown, "{mailbox}");
        }
        // An @ with nothing on one side tells no address.
        assert_eq!(untrusted_name("@home <hal@example.org>"), "@home");
    }

    #[test]
    fn a_name_loses_its_control_characters_and_is_bounded() {
        assert_eq!(
            untrusted_name("\"Ann\u{7}\u{202E}\tExample\" <ann@example.org>"),
            "Ann Example"
        );
        let long = format!("{} <ann@example.org>", "é".repeat(500));
        let shown = untrusted_name(&long);
        assert_eq!(shown.chars().count(), super::MAX_PUBLIC_NAME, "{shown}");
        assert!(shown.ends_with('…'));
    }
}
