//! SVG charts: nim values against n (drawn with `plotters`), and a game's visual value history
//! (GamesmanUni's layout, written as SVG directly).

use crate::error::ApiError;
use plotters::prelude::*;
use sprague::heap::Table;

/// The page's colour of a loss, for the preperiod line.
const LOSE: RGBColor = RGBColor(0x8b, 0x1a, 0x1a);
const INK: RGBColor = RGBColor(0x22, 0x2b, 0x38);
const ACCENT: RGBColor = RGBColor(0x2a, 0x5d, 0xb0);

/// An axis label for whole numbers only: ticks between them stay unlabelled.
fn whole(x: &f64) -> String {
    if x.fract().abs() < 1e-9 && *x >= 0.0 {
        format!("{x:.0}")
    } else {
        String::new()
    }
}

fn failed(error: impl std::fmt::Debug) -> ApiError {
    ApiError::internal(format!("drawing the chart failed: {error:?}"))
}

/// Nim values G(0..=to) as points joined by a faint line; the certified preperiod is a red
/// line and one period after it a shaded band. `width` is the width the page shows it at: the
/// chart is drawn for it (a phone gets fewer, larger labels instead of a shrunk desktop chart).
pub(crate) fn table(game: &str, table: &Table, width: u32) -> Result<String, ApiError> {
    let values = &table.values;
    let n = values.len() as f64;
    // Headroom above the largest value keeps the legend off the points.
    let top = values.max() as f64 * 1.3 + 1.5;
    let per_point = f64::from(width) / n.max(1.0);
    let radius = if per_point >= 4.0 {
        3
    } else if per_point >= 1.5 {
        2
    } else {
        1
    };
    let narrow = width < 600;
    let height = if narrow {
        width * 3 / 4
    } else {
        width * 7 / 15
    };
    let font = if narrow { 15 } else { 17 };
    let mut body = String::new();
    {
        let root = SVGBackend::with_string(&mut body, (width, height)).into_drawing_area();
        root.fill(&WHITE).map_err(failed)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(format!("{game}: G(n)"), ("sans-serif", font + 2))
            .margin(if narrow { 8 } else { 14 })
            .x_label_area_size(if narrow { 34 } else { 38 })
            .y_label_area_size(if narrow { 36 } else { 46 })
            .build_cartesian_2d(-0.5f64..(n - 0.5).max(0.5), -0.3f64..top)
            .map_err(failed)?;
        chart
            .configure_mesh()
            .x_desc("n (heap size)")
            .y_desc("nim value")
            .x_labels(if narrow { 6 } else { 12 })
            .y_labels(if narrow { 6 } else { 10 })
            .label_style(("sans-serif", font))
            .axis_desc_style(("sans-serif", font))
            .x_label_formatter(&whole)
            .y_label_formatter(&whole)
            .light_line_style(RGBColor(0xee, 0xee, 0xee))
            .draw()
            .map_err(failed)?;
        if let Some(p) = table.period {
            let start = p.preperiod as f64 - 0.5;
            let end = (p.preperiod + p.period) as f64 - 0.5;
            chart
                .draw_series(std::iter::once(Rectangle::new(
                    [(start, -0.3), (end.min(n - 0.5), top)],
                    ACCENT.mix(0.12).filled(),
                )))
                .map_err(failed)?
                .label(format!("one period ({})", p.period))
                .legend(|(x, y)| {
                    Rectangle::new([(x, y - 5), (x + 14, y + 5)], ACCENT.mix(0.3).filled())
                });
            chart
                .draw_series(LineSeries::new(
                    [(start, -0.3), (start, top)],
                    LOSE.stroke_width(2),
                ))
                .map_err(failed)?
                .label(format!("preperiod {}", p.preperiod))
                .legend(|(x, y)| PathElement::new([(x, y), (x + 14, y)], LOSE.stroke_width(2)));
        }
        chart
            .draw_series(LineSeries::new(
                values.iter().enumerate().map(|(i, v)| (i as f64, v as f64)),
                INK.mix(0.25),
            ))
            .map_err(failed)?;
        chart
            .draw_series(
                values
                    .iter()
                    .enumerate()
                    .map(|(i, v)| Circle::new((i as f64, v as f64), radius, INK.filled())),
            )
            .map_err(failed)?
            .label("G(n)")
            .legend(|(x, y)| Circle::new((x + 7, y), 3, INK.filled()));
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .label_font(("sans-serif", font))
            .background_style(WHITE.mix(0.85))
            .border_style(RGBColor(0xcc, 0xcc, 0xcc))
            .draw()
            .map_err(failed)?;
        root.present().map_err(failed)?;
    }
    Ok(body)
}

/// One point of a game's history: its value for the player who moved first, and its
/// remoteness (for a draw, its draw level) when known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct HistoryPoint {
    /// `w` (the first player wins), `l` (loses), `t` (a tie) or `d` (a draw).
    pub(crate) value: char,
    /// The remoteness; for a draw, its draw level.
    pub(crate) level: Option<u64>,
}

/// Parses `w9,l8,t7,d2`: a value letter, then an optional number.
pub(crate) fn parse_history(text: &str) -> Result<Vec<HistoryPoint>, ApiError> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(Vec::new());
    }
    text.split(',')
        .map(|item| {
            let item = item.trim();
            let mut chars = item.chars();
            let value = chars.next().map(|c| c.to_ascii_lowercase());
            let value = match value {
                Some(c @ ('w' | 't' | 'd' | 'l')) => c,
                _ => {
                    return Err(ApiError::bad(format!(
                        "history point '{item}' must start with w, t, d or l"
                    )))
                }
            };
            let rest = chars.as_str();
            let level = if rest.is_empty() {
                None
            } else {
                Some(
                    sprague::game::notation::parse_u64(rest, "a history point's number")
                        .map_err(ApiError::bad)?,
                )
            };
            Ok(HistoryPoint { value, level })
        })
        .collect()
}

/// The colours of GamesmanUni's values: win green, tie yellow, draw its own colour, lose dark
/// red.
fn fill(value: char) -> &'static str {
    match value {
        'w' => "#1e8e3e",
        't' => "#d4a017",
        'd' => "#3b7dd8",
        _ => "#8b1a1a",
    }
}

/// The value of a move for the player making it, from the value after it for the first
/// player: the first player makes the odd moves (1, 3, …).
fn for_mover(after: char, first_moves: bool) -> char {
    match (after, first_moves) {
        ('w', false) => 'l',
        ('l', false) => 'w',
        (v, _) => v,
    }
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// What a point says in words, from the first player's side.
fn point_words(p: &HistoryPoint) -> String {
    let level = p.level.map(|r| r.to_string());
    match (p.value, level) {
        ('w', Some(r)) => format!("first player wins, remoteness {r}"),
        ('l', Some(r)) => format!("second player wins, remoteness {r}"),
        ('t', Some(r)) => format!("a tie, remoteness {r}"),
        ('d', Some(k)) => format!("a draw, draw level {k}"),
        ('w', None) => "first player wins, remoteness unknown".into(),
        ('l', None) => "second player wins, remoteness unknown".into(),
        ('t', None) => "a tie, remoteness unknown".into(),
        _ => "a draw".into(),
    }
}

/// GamesmanUni's visual value history: one row a position (the start at the top, then after
/// each move), remoteness across, mirrored: 0 at both edges, growing toward the draw column in
/// the middle. A position the first player wins is a green point on the left at its
/// remoteness, one the second player wins a dark red point on the right; a tie is a yellow
/// pair on both sides, a draw a point in the middle (with its draw level). Points of unknown
/// remoteness are hollow, half way along their side. Consecutive points are joined by a line
/// coloured by the move's value for the player who made it. `moves` label the rows (move k
/// leads to row k), on the side of the player who made it. `width` is the width the page
/// shows it at.
pub(crate) fn history(
    points: &[HistoryPoint],
    moves: &[String],
    width: u32,
) -> Result<String, ApiError> {
    use std::fmt::Write;
    let w = f64::from(width);
    let narrow = width < 560;
    let font = if narrow { 11.0 } else { 12.5 };
    // The side columns hold the moves' labels (cut short with … when long; the whole label is
    // the tooltip).
    let label = (w * 0.24).min(190.0);
    let (x0, x1, mid) = (label, w - label, w / 2.0);
    let most = points
        .iter()
        .filter(|p| p.value != 'd')
        .filter_map(|p| p.level)
        .max()
        .unwrap_or(1)
        .max(1);
    // Columns 0..=most on each side, and half a column to spare beside the draw column.
    let column = (mid - x0) / (most as f64 + 1.0);
    let left = |r: u64| x0 + r as f64 * column;
    let right = |r: u64| x1 - r as f64 * column;
    let row = if narrow { 20.0 } else { 22.0 };
    let top = 58.0;
    let rows = points.len().max(1);
    let height = top + rows as f64 * row + 30.0;
    let y = |i: usize| top + (i as f64 + 0.5) * row;
    // Where a point sits: one place, or a tie's two.
    let places = |p: &HistoryPoint| -> Vec<f64> {
        match (p.value, p.level) {
            ('d', _) => vec![mid],
            ('w', Some(r)) => vec![left(r)],
            ('l', Some(r)) => vec![right(r)],
            ('t', Some(r)) => vec![left(r), right(r)],
            ('w', None) => vec![(x0 + mid) / 2.0],
            ('l', None) => vec![(x1 + mid) / 2.0],
            _ => vec![(x0 + mid) / 2.0, (x1 + mid) / 2.0],
        }
    };
    let mut svg = String::new();
    let _ = write!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="vvh" width="{width}" height="{height:.0}" viewBox="0 0 {width} {height:.0}" font-family="sans-serif" font-size="{font}">"#
    );
    let _ = write!(
        svg,
        r##"<rect width="100%" height="100%" fill="#fff"/><text x="{mid:.1}" y="16" text-anchor="middle" font-size="{:.1}" font-weight="600">Visual value history</text>"##,
        font + 3.0
    );
    let _ = write!(
        svg,
        r##"<text x="4" y="33" fill="#1e8e3e" font-weight="600">← first player wins</text><text x="{:.1}" y="33" text-anchor="end" fill="#8b1a1a" font-weight="600">second player wins →</text>"##,
        w - 4.0
    );
    // The columns: remoteness numbers above and below, a line each, D in the middle.
    let step = {
        let room = ((mid - x0) / (font * 2.2)).max(1.0) as u64;
        (most + 1).div_ceil(room).max(1)
    };
    let bottom = top + rows as f64 * row;
    for r in 0..=most {
        let strong = r % step == 0;
        for x in [left(r), right(r)] {
            let _ = write!(
                svg,
                r##"<line x1="{x:.1}" y1="{top:.1}" x2="{x:.1}" y2="{bottom:.1}" stroke="{}" stroke-width="1"/>"##,
                if strong { "#d9dee5" } else { "#f0f2f5" }
            );
            if strong {
                for ty in [top - 6.0, bottom + 14.0] {
                    let _ = write!(
                        svg,
                        r##"<text class="remoteness" x="{x:.1}" y="{ty:.1}" text-anchor="middle" fill="#5b6676">{r}</text>"##
                    );
                }
            }
        }
    }
    let _ = write!(
        svg,
        r##"<line x1="{mid:.1}" y1="{top:.1}" x2="{mid:.1}" y2="{bottom:.1}" stroke="#3b7dd8" stroke-dasharray="3 3"/>"##
    );
    for ty in [top - 6.0, bottom + 14.0] {
        let _ = write!(
            svg,
            r##"<text x="{mid:.1}" y="{ty:.1}" text-anchor="middle" font-weight="600" fill="#3b7dd8">D</text>"##
        );
    }
    let _ = write!(
        svg,
        r##"<text x="{mid:.1}" y="{:.1}" text-anchor="middle" fill="#5b6676">remoteness</text>"##,
        bottom + 27.0
    );
    // Row labels: the start, then each move on the side of the player who made it.
    for i in 0..points.len() {
        let (text, x, anchor) = if i == 0 {
            ("start".to_string(), 4.0, "start")
        } else {
            let text = moves
                .get(i - 1)
                .cloned()
                .unwrap_or_else(|| format!("move {i}"));
            if i % 2 == 1 {
                (format!("{i}. {text}"), 4.0, "start")
            } else {
                (format!("{i}. {text}"), w - 4.0, "end")
            }
        };
        let max_chars = ((label - 6.0) / (font * 0.55)).max(4.0) as usize;
        let shown: String = if text.chars().count() > max_chars {
            text.chars().take(max_chars - 1).chain(['…']).collect()
        } else {
            text.clone()
        };
        let _ = write!(
            svg,
            r##"<text class="move" x="{x:.1}" y="{:.1}" text-anchor="{anchor}" dominant-baseline="middle" fill="#222b38"><title>{}</title>{}</text>"##,
            y(i),
            escape(&text),
            escape(&shown)
        );
    }
    // The lines: move k joins row k-1 to row k, coloured by its value for its mover.
    for i in 1..points.len() {
        let colour = fill(for_mover(points[i].value, i % 2 == 1));
        let (from, to) = (places(&points[i - 1]), places(&points[i]));
        let pairs: Vec<(f64, f64)> = if from.len() == to.len() {
            from.iter().copied().zip(to.iter().copied()).collect()
        } else {
            from.iter()
                .flat_map(|&a| to.iter().map(move |&b| (a, b)))
                .collect()
        };
        for (a, b) in pairs {
            let _ = write!(
                svg,
                r##"<line class="move-line" x1="{a:.1}" y1="{:.1}" x2="{b:.1}" y2="{:.1}" stroke="{colour}" stroke-width="2"/>"##,
                y(i - 1),
                y(i)
            );
        }
    }
    // The points, the last (the position now) larger; ties joined across.
    for (i, p) in points.iter().enumerate() {
        let radius = if i + 1 == points.len() { 6.5 } else { 4.5 };
        let colour = fill(p.value);
        let xs = places(p);
        if xs.len() == 2 {
            let _ = write!(
                svg,
                r##"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="{colour}" stroke-width="1" stroke-dasharray="2 3"/>"##,
                xs[0],
                y(i),
                xs[1],
                y(i)
            );
        }
        let words = point_words(p);
        for x in xs {
            let paint = if p.level.is_some() || p.value == 'd' {
                format!(r#"fill="{colour}""#)
            } else {
                format!(r##"fill="#fff" stroke="{colour}" stroke-width="2""##)
            };
            let _ = write!(
                svg,
                r##"<circle class="point" data-row="{i}" data-value="{}" data-level="{}" cx="{x:.1}" cy="{:.1}" r="{radius}" {paint}><title>{}: {words}</title></circle>"##,
                p.value,
                p.level.map(|l| l.to_string()).unwrap_or_default(),
                y(i),
                if i == 0 {
                    "start".to_string()
                } else {
                    format!("after move {i}")
                }
            );
        }
        if p.value == 'd' {
            if let Some(k) = p.level {
                let _ = write!(
                    svg,
                    r##"<text x="{:.1}" y="{:.1}" dominant-baseline="middle" fill="#3b7dd8">level {k}</text>"##,
                    mid + 9.0,
                    y(i)
                );
            }
        }
    }
    svg.push_str("</svg>");
    Ok(svg)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn history_points_parse_and_reject_garbage() {
        let points = parse_history("w9, t8,l,D3").unwrap();
        assert_eq!(
            points,
            vec![
                HistoryPoint {
                    value: 'w',
                    level: Some(9)
                },
                HistoryPoint {
                    value: 't',
                    level: Some(8)
                },
                HistoryPoint {
                    value: 'l',
                    level: None
                },
                HistoryPoint {
                    value: 'd',
                    level: Some(3)
                },
            ]
        );
        assert!(parse_history("x1").is_err());
        assert!(parse_history("w1x").is_err());
        assert!(parse_history("").unwrap().is_empty());
    }

    /// The `cx` of every point of `svg`'s row `row`, with its value letter.
    fn row_points(svg: &str, row: usize) -> Vec<(char, f64)> {
        svg.split("<circle ")
            .skip(1)
            .filter(|c| c.contains(&format!(r#"data-row="{row}""#)))
            .map(|c| {
                let value = c
                    .split(r#"data-value=""#)
                    .nth(1)
                    .unwrap()
                    .chars()
                    .next()
                    .unwrap();
                let x = c
                    .split(r#"cx=""#)
                    .nth(1)
                    .unwrap()
                    .split('"')
                    .next()
                    .unwrap();
                (value, x.parse().unwrap())
            })
            .collect()
    }

    #[test]
    fn the_value_history_mirrors_remoteness_about_the_draw_column() {
        // A tie at 4; the first player's wins at 3 and 2; a draw at level 1; the second
        // player's win at 0 (the game over).
        let points = parse_history("t4,w3,w2,d1,l0").unwrap();
        let moves: Vec<String> = ["b2", "a<1", "c3", "x"].map(String::from).to_vec();
        let svg = history(&points, &moves, 640).unwrap();
        assert!(svg.starts_with("<svg"), "{svg}");
        let tie = row_points(&svg, 0);
        assert_eq!(tie.len(), 2, "a tie is a pair of points");
        assert!(tie.iter().all(|&(v, _)| v == 't'));
        // Mirrored: the pair sits symmetrically about the middle (x = 320).
        assert!((tie[0].1 + tie[1].1 - 640.0).abs() < 0.2, "{tie:?}");
        let (win3, win2) = (row_points(&svg, 1)[0], row_points(&svg, 2)[0]);
        let draw = row_points(&svg, 3)[0];
        let over = row_points(&svg, 4)[0];
        // The first player's wins on the left, nearer the edge the fewer moves are left; the
        // draw in the middle; the second player's win on the right, at its edge.
        assert!(
            win2.1 < win3.1 && win3.1 < tie[0].1,
            "{win2:?} {win3:?} {tie:?}"
        );
        assert_eq!(draw, ('d', 320.0));
        assert!(svg.contains("level 1"));
        assert_eq!(over.0, 'l');
        assert!(over.1 > tie[1].1 && over.1 < 640.0, "{over:?}");
        // Colours: win green, tie yellow, draw blue, loss dark red.
        for (value, colour) in [
            ("w", "#1e8e3e"),
            ("t", "#d4a017"),
            ("d", "#3b7dd8"),
            ("l", "#8b1a1a"),
        ] {
            assert!(svg.contains(&format!(r#"data-value="{value}" data-level"#)));
            assert!(svg.contains(&format!(r#"fill="{colour}""#)), "{value}");
        }
        // Lines take the move's value for the player who made it: move 2 (the second
        // player's) leaves a position the first player wins, a loss for its mover (dark red);
        // move 3 draws; move 4 (the second player's) wins for its mover (green).
        let lines: Vec<&str> = svg.split(r#"class="move-line""#).skip(1).collect();
        assert_eq!(lines.len(), 2 + 1 + 1 + 1, "a tie's pair starts two lines");
        assert!(lines[0].contains("#1e8e3e") && lines[1].contains("#1e8e3e"));
        assert!(lines[2].contains("#8b1a1a"), "{}", lines[2]);
        assert!(lines[3].contains("#3b7dd8"), "{}", lines[3]);
        assert!(lines[4].contains("#1e8e3e"), "{}", lines[4]);
        // Labels are escaped, numbered, and on the side of the player who moved.
        let label = |text: &str| {
            svg.split("<text ")
                .find(|t| t.contains(&format!("{text}</text>")))
                .unwrap_or_else(|| panic!("no label {text}"))
                .to_string()
        };
        assert!(label("1. b2").contains(r#"text-anchor="start""#));
        assert!(label("2. a&lt;1").contains(r#"text-anchor="end""#));
        assert!(!svg.contains("a<1"));
        // Unknown remoteness: a hollow point.
        let svg = history(&parse_history("w,l").unwrap(), &[], 320).unwrap();
        assert!(svg.contains(r##"fill="#fff" stroke="#1e8e3e""##), "{svg}");
    }
}
