//! The `result` key of a record as a value: what the record says of the
//! game's end, parsed once where the record is read and written back in
//! the same words.

use crate::game::{Outcome, Side};
use crate::rules::Rules;

/// What a record's `result` says: `"*"` (in play), `"draw"`, or the
/// winner's side name. Replay checks it against the moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// `"*"`: the game is in play.
    Unfinished,
    /// `"draw"`.
    Drawn,
    /// The winner's side name.
    Won(Side),
}

impl Verdict {
    /// The verdict `text` names in `rules`: `*`, `draw` or a side name,
    /// in any case and with white space around; `None` for anything else.
    pub fn parse(rules: Rules, text: &str) -> Option<Verdict> {
        let text = text.trim();
        if text == "*" {
            Some(Verdict::Unfinished)
        } else if text.eq_ignore_ascii_case("draw") {
            Some(Verdict::Drawn)
        } else {
            rules.side_named(text).map(Verdict::Won)
        }
    }

    /// The word a record holds for this verdict: `*`, `draw`, or the
    /// winner's side name in `rules`.
    pub fn word(self, rules: Rules) -> &'static str {
        match self {
            Verdict::Unfinished => "*",
            Verdict::Drawn => "draw",
            Verdict::Won(side) => rules.side_name(side),
        }
    }

    /// The verdict for a game that ended with `outcome` (`None`: in play).
    pub fn of(outcome: Option<Outcome>) -> Verdict {
        match outcome {
            None => Verdict::Unfinished,
            Some(Outcome::Draw) => Verdict::Drawn,
            Some(Outcome::Win(side)) => Verdict::Won(side),
        }
    }

    /// The outcome this verdict claims; `None` while in play.
    pub fn outcome(self) -> Option<Outcome> {
        match self {
            Verdict::Unfinished => None,
            Verdict::Drawn => Some(Outcome::Draw),
            Verdict::Won(side) => Some(Outcome::Win(side)),
        }
    }

    /// Whether the game is over (drawn or won).
    pub fn is_over(self) -> bool {
        self != Verdict::Unfinished
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_word_reads_back_as_its_verdict() {
        for rules in Rules::ALL {
            let verdicts = [
                Verdict::Unfinished,
                Verdict::Drawn,
                Verdict::Won(Side::A),
                Verdict::Won(Side::B),
            ];
            for v in verdicts {
                assert_eq!(Verdict::parse(rules, v.word(rules)), Some(v), "{rules:?}");
                assert_eq!(Verdict::of(v.outcome()), v);
            }
        }
        assert_eq!(
            Verdict::parse(Rules::Mad, " Red "),
            Some(Verdict::Won(Side::B))
        );
        assert_eq!(Verdict::parse(Rules::Mad, "DRAW"), Some(Verdict::Drawn));
        assert_eq!(Verdict::parse(Rules::Mad, "won"), None);
        assert_eq!(Verdict::parse(Rules::Mad, "**"), None);
    }
}
