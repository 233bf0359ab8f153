//! Connect games with gravity (`connect:W,H,K`; Connect Four is `connect:7,6,4`): a piece drops
//! to the lowest free cell of its column. The board machinery is shared with
//! [`crate::games::mnk`]; moves are column numbers from 1.

use crate::analysis::GameDef;
use crate::error::{Error, Result};
use crate::games::mnk::{parse_params, BoardGame, BoardRules};
use crate::spec::{CatalogEntry, Family};
use std::sync::Arc;

/// The `connect:W,H,K` family.
pub struct ConnectFamily;

impl Family for ConnectFamily {
    fn catalog(&self) -> Vec<CatalogEntry> {
        vec![CatalogEntry {
            spec: "connect:W,H,K",
            params: "W columns, H rows (W×H at most 64), K in a row wins",
            position: "board string as for mnk (rows top to bottom, x o .), no floating pieces; empty if omitted",
            summary: "Connect-K with gravity (connect:7,6,4 is Connect Four, too large to solve here); a full board is a tie (D); moves are column numbers",
            example: "connect:4,4,3 ..........x..o.x",
        }]
    }

    fn build(
        &self,
        spec: &str,
        name: &str,
        params: Option<&str>,
    ) -> Option<Result<Arc<dyn GameDef>>> {
        if name != "connect" {
            return None;
        }
        Some((|| {
            let [w, h, k] = parse_params(spec, params, ["W", "H", "K"])?;
            let rules = BoardRules::new(w, h, k, true).map_err(|r| Error::spec(spec, r))?;
            Ok(Arc::new(BoardGame::new(format!("connect:{w},{h},{k}"), rules)) as Arc<dyn GameDef>)
        })())
    }
}

#[cfg(test)]
mod tests {
    use crate::analysis::Position;
    use crate::game::{Outcome, Play};
    use crate::spec::{parse_game, parse_position};

    #[test]
    fn floating_pieces_are_refused() {
        let err = parse_position(&["connect:3,3,3", "x........"])
            .err()
            .unwrap();
        assert!(err.to_string().contains("floating"), "{err}");
        assert!(parse_position(&["connect:3,3,3", "......x.."]).is_ok());
    }

    #[test]
    fn moves_are_columns_and_pieces_drop() {
        let p = parse_position(&["connect:3,3,3", "......x.."]).unwrap();
        let Position::Single(s) = p else { panic!() };
        let moves: Vec<(String, String)> = s
            .moves(Play::Normal)
            .unwrap()
            .into_iter()
            .map(|(m, n)| (m, n.to_string()))
            .collect();
        assert_eq!(
            moves,
            vec![
                ("1".to_string(), "...o..x..".to_string()),
                ("2".to_string(), "......xo.".to_string()),
                ("3".to_string(), "......x.o".to_string()),
            ]
        );
    }

    #[test]
    fn small_boards_solve() {
        // On 4 columns of 4 with lines of 3, the first player wins.
        let game = parse_game("connect:4,4,3").unwrap();
        let report = game.solve(&[], &()).unwrap().unwrap();
        assert_eq!(report.outcome, Outcome::N);
        // Lines of 4 on a 4x4 board: a tie.
        let game = parse_game("connect:4,4,4").unwrap();
        let report = game.solve(&[], &()).unwrap().unwrap();
        assert_eq!(report.outcome, Outcome::D);
        assert!(parse_game("connect:4,4").is_err());
    }
}
