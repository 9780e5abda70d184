//! What became of a mail, and what a game's clock did, as data: the
//! poll logs them (`fate=` of a `mail` or a `clock` line), tests and
//! tools tell fates apart by their variant. Their words are the log's:
//! [`Fate`]'s and [`TickFate`]'s `Display`.

use crate::game::Side;
use crate::mail::command::Command;
use crate::rules::Rules;
use crate::timecontrol::{Notice, ReminderPoint};
use std::fmt;

/// What became of one mail (or of the bot's move, played as one).
#[derive(Clone, Debug, PartialEq)]
pub enum Fate {
    /// Commands answered outside a game (or in a game's thread, outside
    /// its play): `help`, `games`, `challenge`, ...
    Answered(Vec<Command>),
    /// Commands of a game carried out in order: `id`, and what each did
    /// (`white played 13-21`).
    Played {
        id: String,
        steps: Vec<String>,
    },
    /// A mail carried out without some of its lines, which failed.
    LeftOut {
        fate: Box<Fate>,
        lines: usize,
    },
    /// A mail a robot sent (an autoresponder, a bounce): why it is one.
    Automated(String),
    /// No From address pbem could answer.
    NoFrom,
    /// pbem's own mail come back.
    OwnMail,
    /// A mail that does not parse as one: why.
    Unreadable(String),
    /// A mail about a game from an address that plays no side in it.
    NotAPlayer {
        from: String,
        id: String,
    },
    /// A command of a game sent about an id that names none.
    UnknownGame {
        from: String,
        id: String,
    },
    /// A mail refused whole, and why (a line that is no command, none at
    /// all, a challenge out of bounds).
    Refused {
        from: String,
        why: String,
    },
    /// A command of a game refused (an illegal move): the mail is
    /// carried out not at all.
    RefusedCommand {
        command: String,
        from: String,
        id: String,
        why: String,
    },
    /// A mail for a game from one of its players' addresses without their
    /// key (`key`: what key it carried, in words); `told`: who was told.
    RefusedKey {
        from: String,
        id: String,
        key: String,
        told: String,
    },
    /// A mail for a game from a stranger carrying a player's key: nothing
    /// done, and the key's owner told.
    RefusedStranger {
        from: String,
        id: String,
        key: String,
        owner: String,
    },
    /// A mail about a game whose record cannot be used.
    Damaged {
        id: String,
        error: String,
    },
    ChallengeAccepted {
        id: String,
    },
    ChallengeDeclined {
        id: String,
        by: String,
    },
    ChallengeWithdrawn {
        id: String,
        by: String,
    },
    BotChallengeConfirmed {
        id: String,
    },
    RequestConfirmed {
        id: String,
        by: String,
        command: String,
    },
    RequestDropped {
        id: String,
        by: String,
    },
}

impl Default for Fate {
    fn default() -> Fate {
        Fate::Answered(Vec::new())
    }
}

impl fmt::Display for Fate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fate::Answered(commands) => write!(f, "{}", super::summary(commands)),
            Fate::Played { id, steps } => write!(f, "{id}: {}", steps.join("; ")),
            Fate::LeftOut { fate, lines } => {
                let s = if *lines == 1 { "" } else { "s" };
                write!(f, "{fate} ({lines} line{s} left out)")
            }
            Fate::Automated(why) => write!(f, "dropped, automated mail: {why}"),
            Fate::NoFrom => write!(f, "dropped: no usable From address"),
            Fate::OwnMail => write!(f, "dropped: sent by pbem itself"),
            Fate::Unreadable(why) => write!(f, "dropped: {why}"),
            Fate::NotAPlayer { from, id } => write!(f, "dropped: {from} is not a player of {id}"),
            Fate::UnknownGame { from, id } => {
                write!(f, "dropped: mail from {from} names unknown game {id}")
            }
            Fate::Refused { from, why } => write!(f, "refused from {from}: {why}"),
            Fate::RefusedCommand {
                command,
                from,
                id,
                why,
            } => write!(f, "refused {command} from {from} in {id}: {why}"),
            Fate::RefusedKey {
                from,
                id,
                key,
                told,
            } => write!(f, "refused: mail for {id} from {from} {key}; {told}"),
            Fate::RefusedStranger {
                from,
                id,
                key,
                owner,
            } => write!(
                f,
                "refused: mail for {id} from {from} {key}; {from} is not a player of {id}, so \
                 nothing was done; {owner} was told"
            ),
            Fate::Damaged { id, error } => write!(f, "refused: record of {id} is damaged: {error}"),
            Fate::ChallengeAccepted { id } => write!(f, "challenge {id} accepted: game begins"),
            Fate::ChallengeDeclined { id, by } => write!(f, "challenge {id} declined by {by}"),
            Fate::ChallengeWithdrawn { id, by } => write!(f, "challenge {id} withdrawn by {by}"),
            Fate::BotChallengeConfirmed { id } => {
                write!(f, "bot challenge {id} confirmed: game begins")
            }
            Fate::RequestConfirmed { id, by, command } => {
                write!(f, "request {id} confirmed by {by}: {command}")
            }
            Fate::RequestDropped { id, by } => write!(f, "request {id} dropped by {by}"),
        }
    }
}

/// What a game's clock did at a poll (a [`super::Tick`]'s fate): each
/// about `side` of game `id`, a game of `rules` (which names the side).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TickFate {
    /// The side to move reminded that `point` of its turn's time is
    /// used.
    Reminded {
        id: String,
        rules: Rules,
        side: Side,
        point: ReminderPoint,
    },
    /// The side to move sent the final notice before its deadline.
    FinalNotice {
        id: String,
        rules: Rules,
        side: Side,
    },
    /// The side to move lost the game on time.
    LostOnTime {
        id: String,
        rules: Rules,
        side: Side,
    },
}

impl TickFate {
    /// The fate of a clock in game `id` that owes `notice`.
    pub fn of(id: &str, rules: Rules, notice: &Notice) -> TickFate {
        let (id, side) = (id.to_string(), notice.side());
        match *notice {
            Notice::Reminder { point, .. } => TickFate::Reminded {
                id,
                rules,
                side,
                point,
            },
            Notice::Final { .. } => TickFate::FinalNotice { id, rules, side },
            Notice::Timeout { .. } => TickFate::LostOnTime { id, rules, side },
        }
    }
}

impl fmt::Display for TickFate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TickFate::Reminded {
                id,
                rules,
                side,
                point,
            } => {
                let name = rules.side_name(*side);
                write!(f, "{id}: {name} reminded ({point} of the time used)")
            }
            TickFate::FinalNotice { id, rules, side } => {
                write!(f, "{id}: {} sent the final notice", rules.side_name(*side))
            }
            TickFate::LostOnTime { id, rules, side } => {
                write!(f, "{id}: {} lost on time", rules.side_name(*side))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clocks_fate_reads_in_the_log_as_it_always_did() {
        let (id, rules) = ("bz-test1".to_string(), Rules::BoomAndZoom);
        let point: ReminderPoint = "87.5%".parse().unwrap();
        let side = rules.side_named("black").unwrap();
        let words: Vec<String> = [
            TickFate::Reminded {
                id: id.clone(),
                rules,
                side,
                point,
            },
            TickFate::FinalNotice {
                id: id.clone(),
                rules,
                side,
            },
            TickFate::LostOnTime { id, rules, side },
        ]
        .iter()
        .map(ToString::to_string)
        .collect();
        let deadline = "2026-11-07T09:00:00Z".parse().unwrap();
        assert_eq!(
            TickFate::of("bz-test1", rules, &Notice::Timeout { side, deadline }).to_string(),
            words[2]
        );
        assert_eq!(
            TickFate::of(
                "bz-test1",
                rules,
                &Notice::Reminder {
                    side,
                    point,
                    deadline
                }
            )
            .to_string(),
            words[0]
        );
        assert_eq!(
            words,
            [
                "bz-test1: black reminded (87.5% of the time used)",
                "bz-test1: black sent the final notice",
                "bz-test1: black lost on time",
            ]
        );
    }
}
