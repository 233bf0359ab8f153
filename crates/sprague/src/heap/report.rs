//! The JSON shapes of `table` and `period`, shared by the command line and the server so that
//! both print the same thing.

use super::{PeriodSearch, Table};
use serde::Serialize;

/// The JSON of `sprague table --format json`: `{"game", "values", "period"}`.
#[derive(Clone, Debug, Serialize)]
pub struct TableReport<'a> {
    /// The game's spec.
    pub game: &'a str,
    /// G(0), G(1), …
    pub values: &'a super::Values,
    /// The certified period, when the table proves one.
    pub period: Option<PeriodSpan>,
}

/// A certified period without the length it was certified at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct PeriodSpan {
    /// The least n0 from which the period holds.
    pub preperiod: u64,
    /// The least period.
    pub period: u64,
}

impl<'a> TableReport<'a> {
    /// The report of `table` for the game `game`.
    pub fn new(game: &'a str, table: &'a Table) -> TableReport<'a> {
        TableReport {
            game,
            values: &table.values,
            period: table.period.map(|p| PeriodSpan {
                preperiod: p.preperiod,
                period: p.period,
            }),
        }
    }

    /// Writes the table as CSV: a header `n,value`, then one row a heap.
    ///
    /// # Errors
    /// Whatever writing to `out` returns.
    pub fn write_csv(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        self.write_csv_rows(out, true)
    }

    /// The CSV table, with its header line `n,value` only when `header` is set.
    pub fn write_csv_rows(
        &self,
        out: &mut dyn std::io::Write,
        header: bool,
    ) -> std::io::Result<()> {
        if header {
            writeln!(out, "n,value")?;
        }
        for (n, v) in self.values.iter().enumerate() {
            writeln!(out, "{n},{v}")?;
        }
        Ok(())
    }
}

/// The JSON of `sprague period --json`: `{"preperiod", "period", "certified_at"}` or
/// `{"preperiod": null, "period": null, "checked_to"}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct PeriodReport {
    /// The least n0 from which the period holds, if certified.
    pub preperiod: Option<u64>,
    /// The least period, if certified.
    pub period: Option<u64>,
    /// The heap size the values were computed to for the proof.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub certified_at: Option<u64>,
    /// The last heap size computed when no period was certified.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub checked_to: Option<u64>,
    /// Why no period can be certified at all, when no bound applies (then `checked_to` is 0:
    /// nothing was computed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub no_certificate: Option<&'static str>,
}

impl From<&PeriodSearch> for PeriodReport {
    fn from(search: &PeriodSearch) -> PeriodReport {
        match *search {
            PeriodSearch::Certified(p) => PeriodReport {
                preperiod: Some(p.preperiod),
                period: Some(p.period),
                certified_at: Some(p.certified_at),
                checked_to: None,
                no_certificate: None,
            },
            PeriodSearch::NotCertified { checked_to } => PeriodReport {
                preperiod: None,
                period: None,
                certified_at: None,
                checked_to: Some(checked_to),
                no_certificate: None,
            },
            PeriodSearch::NoCertificate { reason } => PeriodReport {
                preperiod: None,
                period: None,
                certified_at: None,
                checked_to: Some(0),
                no_certificate: Some(reason),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heap::Periodicity;

    #[test]
    fn shapes_match_the_interface() {
        let table = Table {
            values: vec![0u8, 1].into(),
            period: Some(Periodicity {
                preperiod: 0,
                period: 2,
                certified_at: 5,
            }),
        };
        assert_eq!(
            serde_json::to_string(&TableReport::new("nim", &table)).unwrap(),
            r#"{"game":"nim","values":[0,1],"period":{"preperiod":0,"period":2}}"#
        );
        let mut csv = Vec::new();
        TableReport::new("nim", &table).write_csv(&mut csv).unwrap();
        assert_eq!(String::from_utf8(csv).unwrap(), "n,value\n0,0\n1,1\n");
        let mut rows = Vec::new();
        TableReport::new("nim", &table)
            .write_csv_rows(&mut rows, false)
            .unwrap();
        assert_eq!(String::from_utf8(rows).unwrap(), "0,0\n1,1\n");
        let certified = PeriodReport::from(&PeriodSearch::Certified(table.period.unwrap()));
        assert_eq!(
            serde_json::to_string(&certified).unwrap(),
            r#"{"preperiod":0,"period":2,"certified_at":5}"#
        );
        let open = PeriodReport::from(&PeriodSearch::NotCertified { checked_to: 9 });
        assert_eq!(
            serde_json::to_string(&open).unwrap(),
            r#"{"preperiod":null,"period":null,"checked_to":9}"#
        );
        let none = PeriodReport::from(&PeriodSearch::NoCertificate { reason: "why" });
        assert_eq!(
            serde_json::to_string(&none).unwrap(),
            r#"{"preperiod":null,"period":null,"checked_to":0,"no_certificate":"why"}"#
        );
    }
}
