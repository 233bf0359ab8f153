//! Game families, one file each. Every family registers itself in [`families`].

pub mod grundy;
pub mod nim;
pub mod octal;
pub mod strips;
pub mod subtraction;

use crate::spec::Family;

/// Every registered family, in catalog order.
pub fn families() -> Vec<Box<dyn Family>> {
    vec![
        Box::new(nim::NimFamily),
        Box::new(subtraction::SubtractionFamily),
        Box::new(octal::OctalFamily),
        Box::new(grundy::GrundyFamily),
        Box::new(strips::StripsFamily),
    ]
}
