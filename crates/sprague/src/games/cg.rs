//! `cg`: a short partizan game written as a value in CGSuite's notation (`{2|1||0} + ^`), so
//! that values can be studied, summed with rulesets' positions and compared. A position is
//! the canonical form itself; its options are the canonical form's options, and a move is
//! written `to V` with `V` the option's canonical form.

use crate::game::notation::ParseError;
use crate::game::{Game, Notation};
use crate::partizan::game::move_text;
use crate::partizan::{notation, GameId, Partizan, SharedArena, Side};

/// The game of values in CGSuite's notation; positions live in the game's arena.
#[derive(Clone, Debug, Default)]
pub struct Cg {
    arena: SharedArena,
}

impl Game for Cg {
    type Position = GameId;
}

impl Partizan for Cg {
    fn options(&self, position: &GameId, side: Side) -> Vec<GameId> {
        self.arena.lock().side_options(*position, side)
    }

    fn moves(&self, position: &GameId, side: Side) -> Vec<(String, GameId)> {
        let mut arena = self.arena.lock();
        let options = arena.side_options(*position, side);
        options
            .into_iter()
            .map(|o| (format!("to {}", notation::to_notation(&mut arena, o)), o))
            .collect()
    }
}

impl Notation for Cg {
    /// The words are one expression (several are joined by spaces: `{1|-1} + ^`).
    fn parse_position(&self, words: &[&str]) -> Result<GameId, ParseError> {
        if words.is_empty() {
            return Err("give a value in CGSuite's notation, such as '{1|-1}' or '^*'".into());
        }
        notation::parse(&mut self.arena.lock(), &words.join(" ")).map_err(|e| e.to_string().into())
    }

    fn write_position(&self, position: &GameId) -> String {
        notation::to_notation(&mut self.arena.lock(), *position)
    }

    fn write_move(&self, from: &GameId, to: &GameId) -> String {
        move_text(self, from, to)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::partizan::solve::canonical_form;

    fn value(text: &str) -> String {
        let cg = Cg::default();
        let g = cg.parse_position(&[text]).unwrap();
        canonical_form(&cg, &g).unwrap()
    }

    #[test]
    fn values_are_their_canonical_forms() {
        // Winning Ways ch. 3: {0|{0|0}} is ↑, {0|*} too, and {1|1} is 1*.
        assert_eq!(value("{0|{0|0}}"), "^");
        assert_eq!(value("{0|*}"), "^");
        assert_eq!(value("{1|1}"), "1*");
        assert_eq!(value("{2|1||0} + ^"), value("^ + {2|1||0}"));
        assert_eq!(value("{1|-1}"), "±1");
    }

    #[test]
    fn moves_are_the_options() {
        let cg = Cg::default();
        let g = cg.parse_position(&["{1,*|-1}"]).unwrap();
        let left: Vec<String> = cg.moves(&g, Side::Left).into_iter().map(|m| m.0).collect();
        assert_eq!(left, ["to 1"]);
        assert!(cg.parse_position(&["{1|"]).is_err());
    }
}
