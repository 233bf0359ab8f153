//! SVG charts drawn with `plotters`: nim values against n, and a game's value move by move.

use crate::error::ApiError;
use plotters::prelude::*;
use sprague::heap::Table;

/// The page's colours for move values.
const WIN: RGBColor = RGBColor(0x1e, 0x8e, 0x3e);
const TIE: RGBColor = RGBColor(0xd4, 0xa0, 0x17);
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
    let top = values.iter().copied().max().unwrap_or(0) as f64 * 1.3 + 1.5;
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
                values
                    .iter()
                    .enumerate()
                    .map(|(i, &v)| (i as f64, v as f64)),
                INK.mix(0.25),
            ))
            .map_err(failed)?;
        chart
            .draw_series(
                values
                    .iter()
                    .enumerate()
                    .map(|(i, &v)| Circle::new((i as f64, v as f64), radius, INK.filled())),
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

/// One point of a game's history: its value for the player the page plays for, and the
/// remoteness (or nim value) when known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct HistoryPoint {
    /// `w`, `t`, `d` or `l`.
    pub(crate) value: char,
    /// Remoteness or nim value.
    pub(crate) level: Option<u64>,
}

/// Parses `w9,t8,l3,d`: a value letter, then an optional number.
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

fn colour(value: char) -> RGBColor {
    match value {
        'w' => WIN,
        'l' => LOSE,
        _ => TIE,
    }
}

/// The value after each move (move 0 is the start): remoteness (or nim value) up the side,
/// coloured win green, tie or draw yellow, loss dark red.
pub(crate) fn history(points: &[HistoryPoint], axis: &str) -> Result<String, ApiError> {
    let moves = points.len().max(2) as f64 - 1.0;
    let top = points.iter().filter_map(|p| p.level).max().unwrap_or(1) as f64 * 1.35 + 1.5;
    let mut body = String::new();
    {
        let root = SVGBackend::with_string(&mut body, (640, 300)).into_drawing_area();
        root.fill(&WHITE).map_err(failed)?;
        let mut chart = ChartBuilder::on(&root)
            .caption("Value after each move (for you)", ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(34)
            .y_label_area_size(42)
            .build_cartesian_2d(-0.3f64..moves + 0.3, -0.3f64..top)
            .map_err(failed)?;
        chart
            .configure_mesh()
            .x_desc("move")
            .y_desc(axis)
            .x_labels(points.len().clamp(2, 20))
            .x_label_formatter(&whole)
            .y_label_formatter(&whole)
            .light_line_style(RGBColor(0xee, 0xee, 0xee))
            .draw()
            .map_err(failed)?;
        let xy = |(i, p): (usize, &HistoryPoint)| (i as f64, p.level.unwrap_or(0) as f64);
        chart
            .draw_series(LineSeries::new(
                points.iter().enumerate().map(xy),
                INK.mix(0.35).stroke_width(2),
            ))
            .map_err(failed)?;
        for (value, name) in [('w', "you win"), ('t', "tie or draw"), ('l', "you lose")] {
            let series = points
                .iter()
                .enumerate()
                .filter(|(_, p)| colour(p.value) == colour(value))
                .map(|(i, p)| Circle::new(xy((i, p)), 6, colour(p.value).filled()));
            chart
                .draw_series(series)
                .map_err(failed)?
                .label(name)
                .legend(move |(x, y)| Circle::new((x + 6, y), 5, colour(value).filled()));
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .background_style(WHITE.mix(0.85))
            .border_style(RGBColor(0xcc, 0xcc, 0xcc))
            .draw()
            .map_err(failed)?;
        root.present().map_err(failed)?;
    }
    Ok(body)
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
}
