//! SKELETON, to be replaced by the real implementation.
use crate::game::{End, Game, Side, View};
use crate::notation::Notation;
use crate::rules::Rules;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MadRooks {
    turn: Side,
}

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Move;

impl Game for MadRooks {
    type Move = Move;
    const RULES: Rules = Rules::MadRooks;
    fn start(first: Side) -> Self {
        MadRooks { turn: first }
    }
    fn turn(&self) -> Side {
        self.turn
    }
    fn legal_moves(&self, _out: &mut Vec<Move>) {}
    fn play_unchecked(&mut self, _mv: Move) {}
    fn decided(&self) -> Option<End> {
        None
    }
    fn notation(&self, _mv: Move) -> Notation {
        unimplemented!()
    }
    fn explain(&self, _n: &Notation) -> String {
        "not implemented".into()
    }
    fn diagram(&self, _view: &View) -> String {
        String::new()
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MadBishops {
    turn: Side,
}
impl Game for MadBishops {
    type Move = Move;
    const RULES: Rules = Rules::MadBishops;
    fn start(first: Side) -> Self {
        MadBishops { turn: first }
    }
    fn turn(&self) -> Side {
        self.turn
    }
    fn legal_moves(&self, _out: &mut Vec<Move>) {}
    fn play_unchecked(&mut self, _mv: Move) {}
    fn decided(&self) -> Option<End> {
        None
    }
    fn notation(&self, _mv: Move) -> Notation {
        unimplemented!()
    }
    fn explain(&self, _n: &Notation) -> String {
        "not implemented".into()
    }
    fn diagram(&self, _view: &View) -> String {
        String::new()
    }
}
