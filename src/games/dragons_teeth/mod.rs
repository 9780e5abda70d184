//! SKELETON, to be replaced by the real implementation.
use crate::game::{End, Game, Side, View};
use crate::notation::Notation;
use crate::rules::Rules;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DragonsTeeth {
    turn: Side,
}

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Move;

impl Game for DragonsTeeth {
    type Move = Move;
    const RULES: Rules = Rules::DragonsTeeth;
    fn start(first: Side) -> Self {
        DragonsTeeth { turn: first }
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
