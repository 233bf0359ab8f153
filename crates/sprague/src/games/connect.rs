//! Connect games with gravity (`connect:W,H,K`; Connect Four is `connect:7,6,4`): a piece drops
//! to the lowest free cell of its column. The board machinery is shared with
//! [`crate::games::mnk`] ([`crate::games::mnk::parse_board_game`] with gravity); moves are
//! column numbers from 1.

#[cfg(test)]
mod tests {
    use crate::game::{Evaluated, Notation, Outcome};
    use crate::games::mnk::{parse_board_game, BoardGame};
    use crate::solve::store::FileStore;
    use std::sync::Arc;

    fn game(params: &str) -> BoardGame {
        let (spec, rules) = parse_board_game(params, true).unwrap();
        BoardGame::new(spec, rules, Arc::new(FileStore::memory()))
    }

    #[test]
    fn floating_pieces_are_refused() {
        let g = game("3,3,3");
        let err = g.parse_position(&["x........"]).unwrap_err().to_string();
        assert!(err.contains("floating"), "{err}");
        assert!(g.parse_position(&["......x.."]).is_ok());
    }

    #[test]
    fn moves_are_columns_and_pieces_drop() {
        let g = game("3,3,3");
        let p = g.parse_position(&["......x.."]).unwrap();
        let moves: Vec<(String, String)> = g
            .moves(&p)
            .unwrap()
            .iter()
            .map(|n| (g.write_move(&p, n), g.write_position(n)))
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
        let g = game("4,4,3");
        let start = g.parse_position(&[]).unwrap();
        let report = g.solve(&start, &()).unwrap().unwrap();
        assert_eq!(report.outcome, Outcome::N);
        // Lines of 4 on a 4x4 board: a tie.
        let g = game("4,4,4");
        let report = g.solve(&start, &()).unwrap().unwrap();
        assert_eq!(report.outcome, Outcome::D);
        assert!(parse_board_game("4,4", true).is_err());
    }
}
